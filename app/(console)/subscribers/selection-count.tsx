"use client";

import { useTranslations } from "next-intl";
import { useCallback, useSyncExternalStore } from "react";
import { useFormats } from "@/lib/i18n/client";

const rowBoxes = (form: string) => [...document.querySelectorAll<HTMLInputElement>(`input[form="${form}"][name="select"]`)];
const scopeBox = (form: string) => document.querySelector<HTMLInputElement>(`form[id="${form}"] input[name="scope"]`);

/** Keeps the form's other boxes in step with the row boxes: the header's part-checked, "all matching" gone with the last row. */
function follow(form: string) {
  const boxes = rowBoxes(form);
  const checked = boxes.filter((box) => box.checked).length;
  const scope = scopeBox(form);
  if (checked === 0 && scope) scope.checked = false;
  const header = document.querySelector<HTMLInputElement>(`input[form="${form}"][data-select-page]`);
  if (header) {
    header.checked = checked > 0 && checked === boxes.length;
    header.indeterminate = checked > 0 && checked < boxes.length;
  }
}

/**
 * The bulk toolbar's "3 selected", its "Select all 2,577 matching" (a box of the form: `scope=all`,
 * which works without script too) and "Clear selection". The row boxes are the one record of the
 * selection: this reads them (-1: all matching) whenever a box changes.
 */
export function SelectionCount({ form, total }: { form: string; total: number }) {
  const t = useTranslations("bulk.selection");
  const f = useFormats();
  const subscribe = useCallback(
    (changed: () => void) => {
      // Every box's change bubbles here, the header's after it has set the row boxes.
      const onChange = () => {
        follow(form);
        changed();
      };
      follow(form);
      document.addEventListener("change", onChange);
      window.addEventListener("pageshow", onChange);
      return () => {
        document.removeEventListener("change", onChange);
        window.removeEventListener("pageshow", onChange);
      };
    },
    [form],
  );
  const selected = useSyncExternalStore(
    subscribe,
    () => (scopeBox(form)?.checked ? -1 : rowBoxes(form).filter((box) => box.checked).length),
    () => null,
  );

  const clear = () => {
    for (const box of rowBoxes(form)) box.checked = false;
    document.dispatchEvent(new Event("change"));
  };
  const all = { count: total, n: f.count(total) };

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <output aria-live="polite" className="font-medium text-slate-900">
        {selected === null ? t("unknown") : selected === -1 ? t("all", all) : t("selected", { count: selected, n: f.count(selected) })}
      </output>
      <label className="inline-flex items-center gap-1.5 text-brand-700" hidden={selected !== null && selected >= total}>
        <input type="checkbox" name="scope" value="all" className="size-4 accent-brand-600" />
        {t("selectAll", all)}
      </label>
      {selected !== null ? (
        <button type="button" onClick={clear} className="text-slate-600 underline-offset-2 hover:text-slate-900 hover:underline">
          {t("clear")}
        </button>
      ) : null}
    </div>
  );
}
