import { RETRY_AFTER_SECONDS } from "@/lib/health/unavailable";

// The proxy's own 503 and 429 pages: self-contained, as nothing else can be fetched; the 503
// reloads itself, so the console comes back when the database does.

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function unavailablePage(nonce: string): string {
  return notice(nonce, {
    status: 503,
    title: "Service unavailable",
    heading: "The database is unavailable, retrying…",
    message: `The console cannot reach its database right now. This page tries again every ${RETRY_AFTER_SECONDS} seconds and shows the console again as soon as the database is back.`,
    refresh: true,
  });
}

/** The 429 page: the user's lists (or imports) already take every place they have. */
export function tooManyRequestsPage(nonce: string, message: string): string {
  return notice(nonce, { status: 429, title: "Too many requests", heading: "Too many lists loading at once", message, refresh: false });
}

type Notice = { status: number; title: string; heading: string; message: string; refresh: boolean };

function notice(nonce: string, { status, title, heading, message, refresh }: Notice): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${refresh ? `<meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">\n` : ""}<title>${title} · Console</title>
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
  <p class="code">${status}</p>
  <h1>${escape(heading)}</h1>
  <p role="status">${escape(message)}</p>
</main>
</body>
</html>
`;
}
