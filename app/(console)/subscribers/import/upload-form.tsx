"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";

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
      <Field label="File" hint={`CSV (comma, semicolon or tab separated) or XLSX, up to ${maxMb} MB. The first row names the columns.`}>
        {(props) => (
          <input
            {...props}
            name="file"
            type="file"
            required
            accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="block w-full text-sm file:me-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-200"
          />
        )}
      </Field>
      <Field label="Sheet name (optional)" hint="Every row goes to this sheet. Left empty: each row's own sheet column, else a sheet named after the file.">
        {(props) => <input {...props} name="sheet_name" maxLength={100} className={`${props.className} max-w-sm`} />}
      </Field>
      <FormAlert message={error} className="rounded-md bg-red-50 px-3 py-2" />
      <button type="submit" className={buttonClass.primary} disabled={busy}>
        {busy ? "Checking the file…" : "Upload"}
      </button>
    </form>
  );
}
