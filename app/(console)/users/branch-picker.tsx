"use client";

import { useId, useMemo, useState } from "react";
import { useTranslations } from "next-intl";

export type BranchChoice = { id: number; name: string };

/**
 * A staff member's branches: every branch (`null`), or those ticked, the list searched by name.
 * The same control on /users/new and in the table's "Branches…" dialog.
 */
export function BranchPicker({
  branches,
  value,
  onChange,
  error,
}: {
  branches: BranchChoice[];
  value: readonly number[] | null;
  onChange: (value: number[] | null) => void;
  error?: string;
}) {
  const t = useTranslations("users");
  const id = useId();
  const [search, setSearch] = useState("");
  // The ticks survive a turn to "Every branch" and back.
  const [ticked, setTicked] = useState<readonly number[]>(value ?? []);
  const chosen = useMemo(() => new Set(value ?? ticked), [value, ticked]);
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return q ? branches.filter((b) => b.name.toLowerCase().includes(q)) : branches;
  }, [branches, search]);

  const toggle = (branch: number) => {
    const next = chosen.has(branch) ? [...chosen].filter((b) => b !== branch) : [...chosen, branch];
    setTicked(next);
    onChange(next);
  };

  return (
    <div className="space-y-2">
      <fieldset className="space-y-2 text-sm" aria-describedby={error ? `${id}-error` : undefined}>
        <legend className="block text-sm font-medium text-slate-700">{t("picker.legend")}</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name={`${id}-scope`} checked={value === null} onChange={() => onChange(null)} />
          {t("table.everyBranch")}
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name={`${id}-scope`} checked={value !== null} onChange={() => onChange([...chosen])} />
          {t("picker.onlyTicked")}
        </label>
      </fieldset>
      {value === null ? null : (
        <div className="space-y-2">
          <label className="block text-sm font-medium text-slate-700" htmlFor={`${id}-search`}>
            {t("picker.search")}
          </label>
          <input
            id={`${id}-search`}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm"
          />
          <ul aria-label={t("table.branches")} className="max-h-60 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2 text-sm">
            {shown.map((b) => (
              <li key={b.id}>
                <label className="flex items-center gap-2">
                  <input type="checkbox" checked={chosen.has(b.id)} onChange={() => toggle(b.id)} />
                  <bdi>{b.name}</bdi>
                </label>
              </li>
            ))}
            {shown.length === 0 ? <li className="text-slate-500">{t("picker.noMatch")}</li> : null}
          </ul>
          <p className="text-xs text-slate-500" aria-live="polite">
            {t("picker.ticked", { count: chosen.size })}
          </p>
        </div>
      )}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
