"use client";

import { useListWords } from "./words";
// Its words are useTranslations("list")'s, through useListWords (English outside any provider).

/**
 * The header's "select every row on this page" box, for the row boxes of the form `form`; it
 * belongs to the form without a name (never sent), so the bulk toolbar finds it and shows it part-checked.
 */
export function SelectPage({ form }: { form: string }) {
  const t = useListWords();
  return (
    <input
      type="checkbox"
      form={form}
      data-select-page=""
      aria-label={t("selectPage")}
      className="size-4 rounded border-slate-300 accent-brand-600"
      onChange={(event) => {
        for (const box of document.querySelectorAll<HTMLInputElement>(`input[form="${form}"][name="select"]`)) box.checked = event.currentTarget.checked;
      }}
    />
  );
}
