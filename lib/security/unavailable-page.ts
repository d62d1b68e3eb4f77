import { RETRY_AFTER_SECONDS } from "@/lib/health/unavailable";

// The 503 page the proxy answers while the database is unreachable: self-contained (no script,
// no stylesheet to fetch, its one <style> carries the response's nonce) and it reloads itself,
// so the console comes back on its own when the database does.

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function unavailablePage(nonce: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">
<title>Service unavailable · Console</title>
<style nonce="${escape(nonce)}">
  body { margin: 0; font-family: ui-sans-serif, system-ui, sans-serif; color: #0f172a; background: #f8fafc; }
  main { max-width: 32rem; margin: 0 auto; min-height: 60vh; padding: 4rem 1.5rem; display: flex; flex-direction: column; justify-content: center; text-align: center; }
  .code { font-size: .875rem; font-weight: 600; letter-spacing: .025em; color: #4f46e5; margin: 0; }
  h1 { font-size: 1.5rem; font-weight: 600; margin: .5rem 0 0; }
  p { color: #475569; line-height: 1.5; }
</style>
</head>
<body>
<main>
  <p class="code">503</p>
  <h1>The database is unavailable, retrying…</h1>
  <p role="status">The console cannot reach its database right now. This page tries again every ${RETRY_AFTER_SECONDS} seconds and shows the console again as soon as the database is back.</p>
</main>
</body>
</html>
`;
}
