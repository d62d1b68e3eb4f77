"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/ui/button-styles";

/** The file goes to the JSON API, streamed to storage, never through a server action. */
export function UploadForm({ maxMb }: { maxMb: number }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("file");
    if (!(file instanceof File) || file.size === 0) return setError("Choose a CSV or XLSX file.");
    if (file.size > maxMb * 1024 * 1024) return setError(`The file is larger than ${maxMb} MB, the most an import accepts.`);
    if (!data.get("sheet_name")) data.delete("sheet_name");
    data.set("dry_run", "true");
    setBusy(true);
    setError(null);
    try {
      const response = await fetch("/api/v1/subscribers/imports", { method: "POST", body: data });
      const body = (await response.json().catch(() => null)) as { id?: string; error?: { message?: string } } | null;
      if (!response.ok || !body?.id) {
        setError(body?.error?.message ?? `The upload failed (${response.status}). Try again.`);
        setBusy(false);
        return;
      }
      router.push(`/subscribers/import/${body.id}`);
    } catch {
      setError("The upload did not reach the server. Check the connection and try again.");
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-busy={busy}>
      <div className="space-y-1">
        <label htmlFor="import-file" className="block text-sm font-medium text-slate-800">
          File
        </label>
        <input
          id="import-file"
          name="file"
          type="file"
          required
          accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          aria-describedby="import-file-help"
          className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-200"
        />
        <p id="import-file-help" className="text-xs text-slate-500">
          CSV (comma, semicolon or tab separated) or XLSX, up to {maxMb} MB. The first row names the columns.
        </p>
      </div>
      <div className="space-y-1">
        <label htmlFor="import-sheet" className="block text-sm font-medium text-slate-800">
          Sheet name <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input id="import-sheet" name="sheet_name" maxLength={100} aria-describedby="import-sheet-help" className="w-full max-w-sm rounded-md border border-slate-300 px-3 py-2 text-sm" />
        <p id="import-sheet-help" className="text-xs text-slate-500">
          Every row goes to this sheet. Left empty: each row&apos;s own sheet column, else a sheet named after the file.
        </p>
      </div>
      {error ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <button type="submit" className={buttonClass.primary} disabled={busy}>
        {busy ? "Checking the file…" : "Upload"}
      </button>
    </form>
  );
}
