"use client";

import { useDatabaseOutage } from "@/lib/health/use-outage";

export default function GlobalError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  const outage = useDatabaseOutage(retry);
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", padding: "4rem", textAlign: "center" }}>
        {outage === "database-down" ? (
          <>
            <h1>The database is unavailable, retrying…</h1>
            <p role="status">This page tries again every few seconds and comes back by itself.</p>
          </>
        ) : (
          <>
            <h1>Something went wrong</h1>
            <p>Reference: {error.digest ?? "none"}</p>
            <button type="button" onClick={retry}>
              Try again
            </button>
          </>
        )}
      </body>
    </html>
  );
}
