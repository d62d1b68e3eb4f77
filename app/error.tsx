"use client";

import { PageState } from "@/components/page-state";
import { buttonClass } from "@/components/ui/button-styles";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <PageState code="Error" title="Something went wrong" action={null}>
      <p>The page could not be shown. Try again; if it keeps failing, tell us this reference:</p>
      <p className="mt-2 font-mono text-sm text-slate-500">{error.digest ?? "no reference"}</p>
      <button type="button" onClick={reset} className={`${buttonClass.primary} mt-8`}>
        Try again
      </button>
    </PageState>
  );
}
