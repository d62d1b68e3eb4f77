"use client";

/**
 * The header's "select every row on this page" box, for the row boxes of the form `form`; it
 * belongs to the form without a name (never sent), so the bulk toolbar finds it and shows it part-checked.
 */
export function SelectPage({ form }: { form: string }) {
  return (
    <input
      type="checkbox"
      form={form}
      data-select-page=""
      aria-label="Select every subscriber on this page"
      className="size-4 rounded border-slate-300 accent-brand-600"
      onChange={(event) => {
        for (const box of document.querySelectorAll<HTMLInputElement>(`input[form="${form}"][name="select"]`)) box.checked = event.currentTarget.checked;
      }}
    />
  );
}
