"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";

/** The file goes to the JSON API, streamed to storage, never through a server action. */
export function UploadForm({ maxMb }: { maxMb: number }) {
  const router = useRouter();
  const t = useTranslations("import.upload");
  const locale = useLocale();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("file");
    if (!(file instanceof File) || file.size === 0) return setError(t("chooseFile"));
    if (file.size > maxMb * 1024 * 1024) return setError(t("tooLarge", { mb: maxMb }));
    if (!data.get("sheet_name")) data.delete("sheet_name");
    data.set("dry_run", "true");
    setBusy(true);
    setError(null);
    try {
      // The API says why a file is refused in the Accept-Language asked: the page's.
      const response = await fetch("/api/v1/subscribers/imports", { method: "POST", body: data, headers: { "accept-language": locale } });
      const body = (await response.json().catch(() => null)) as { id?: string; error?: { message?: string } } | null;
      if (!response.ok || !body?.id) {
        setError(body?.error?.message ?? t("failed", { status: response.status }));
        setBusy(false);
        return;
      }
      router.push(`/subscribers/import/${body.id}`);
    } catch {
      setError(t("unreachable"));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-busy={busy}>
      <Field label={t("file")} hint={t("fileHint", { mb: maxMb })}>
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
      <Field label={t("sheetName")} hint={t("sheetHint")}>
        {(props) => <input {...props} name="sheet_name" maxLength={100} className={`${props.className} max-w-sm`} />}
      </Field>
      <FormAlert message={error} className="rounded-md bg-red-50 px-3 py-2" />
      <button type="submit" className={buttonClass.primary} disabled={busy}>
        {busy ? t("checking") : t("submit")}
      </button>
    </form>
  );
}
