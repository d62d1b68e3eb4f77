"use client";

import { PageMessage } from "@/components/page-message";
import { buttonClass } from "@/components/ui/button-styles";
import { useDatabaseOutage } from "@/lib/health/use-outage";

export default function ErrorPage({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  // Production hides server errors' messages: ask /api/health whether the database is the cause.
  const outage = useDatabaseOutage(retry);
  if (outage === "database-down") {
    return (
      <PageMessage code="503" title="The database is unavailable, retrying…">
        <p role="status">The console cannot reach its database right now. This page tries again every few seconds and comes back by itself.</p>
      </PageMessage>
    );
  }
  return (
    <PageMessage code="Error" title="Something went wrong">
      <p>The page could not be shown. Try again; if it keeps failing, tell us this reference:</p>
      <p className="mt-2 font-mono text-sm text-slate-500">{error.digest ?? "no reference"}</p>
      <button type="button" onClick={retry} className={`${buttonClass.primary} mt-8`}>
        Try again
      </button>
    </PageMessage>
  );
}
