"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { inputClass } from "@/components/ui/field";
import { buttonClass } from "@/components/ui/button-styles";

export type FilterField =
  | { kind: "text"; name: string; label: string; placeholder?: string; numeric?: boolean }
  | { kind: "select"; name: string; label: string; options: { value: string; label: string }[] }
  | { kind: "dateRange"; label: string; from: string; to: string };

const DEBOUNCE_MS = 300;

/**
 * Filters that live in the URL: every change navigates (so Back/Forward, reload and shared
 * links work) and returns to page 1; text waits for a pause in typing. Without JavaScript it is
 * a plain GET form with an Apply button.
 */
export function FilterBar({ fields, resetKeys }: { fields: FilterField[]; resetKeys: readonly string[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();

  // The query every change builds on: the URL's, or the last one asked for while it is still on
  // its way, so a debounced text change firing after a select keeps the select (and a timer
  // set during an earlier render does not bring back that render's query).
  const latest = useRef(searchParams.toString());
  useEffect(() => {
    latest.current = searchParams.toString(); // the URL caught up, or Back/Forward moved it
  }, [searchParams]);

  const navigate = (changes: Record<string, string>) => {
    const next = new URLSearchParams(latest.current);
    for (const [key, value] of Object.entries(changes)) {
      if (value.trim()) next.set(key, value.trim());
      else next.delete(key);
    }
    next.delete("page");
    const query = next.toString();
    latest.current = query;
    startTransition(() => router.push(query ? `${pathname}?${query}` : pathname, { scroll: false }));
  };

  const active = resetKeys.filter((key) => searchParams.get(key));
  const clear = () => {
    const next = new URLSearchParams();
    const sort = searchParams.get("sort");
    if (sort) next.set("sort", sort);
    latest.current = next.toString();
    startTransition(() => router.push(next.size ? `${pathname}?${next}` : pathname, { scroll: false }));
  };

  return (
    <form
      method="get"
      action={pathname}
      role="search"
      aria-label="Filters"
      aria-busy={pending}
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        navigate(Object.fromEntries([...data.entries()].map(([k, v]) => [k, String(v)])));
      }}
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {fields.map((field) =>
          field.kind === "text" ? (
            <TextFilter key={field.name} field={field} value={searchParams.get(field.name) ?? ""} onChange={(v) => navigate({ [field.name]: v })} />
          ) : field.kind === "select" ? (
            <label key={field.name} className="block text-sm">
              <span className="font-medium text-slate-700">{field.label}</span>
              <select
                name={field.name}
                className={`${inputClass} mt-1`}
                value={searchParams.get(field.name) ?? ""}
                onChange={(e) => navigate({ [field.name]: e.target.value })}
              >
                <option value="">Any</option>
                {field.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <fieldset key={field.from} className="text-sm sm:col-span-2">
              <legend className="font-medium text-slate-700">{field.label}</legend>
              <div className="mt-1 grid grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] items-center gap-1.5">
                <input
                  type="date"
                  name={field.from}
                  aria-label={`${field.label} from`}
                  className={`${inputClass} min-w-0 px-2`}
                  value={searchParams.get(field.from) ?? ""}
                  max={searchParams.get(field.to) ?? undefined}
                  onChange={(e) => navigate({ [field.from]: e.target.value })}
                />
                <span aria-hidden="true" className="text-slate-400">
                  –
                </span>
                <input
                  type="date"
                  name={field.to}
                  aria-label={`${field.label} to`}
                  className={`${inputClass} min-w-0 px-2`}
                  value={searchParams.get(field.to) ?? ""}
                  min={searchParams.get(field.from) ?? undefined}
                  onChange={(e) => navigate({ [field.to]: e.target.value })}
                />
              </div>
            </fieldset>
          ),
        )}
      </div>
      {searchParams.get("sort") ? <input type="hidden" name="sort" value={searchParams.get("sort")!} /> : null}
      <div className="mt-3 flex items-center gap-3">
        <noscript>
          <button type="submit" className={buttonClass.primary}>
            Apply filters
          </button>
        </noscript>
        <button type="button" onClick={clear} disabled={!active.length} className={buttonClass.secondary}>
          Clear filters
        </button>
        <span className="text-xs text-slate-500" aria-live="polite">
          {pending ? "Updating…" : active.length ? `${active.length} filter${active.length === 1 ? "" : "s"} applied` : ""}
        </span>
      </div>
    </form>
  );
}

function TextFilter({
  field,
  value,
  onChange,
}: {
  field: Extract<FilterField, { kind: "text" }>;
  value: string;
  onChange: (value: string) => void;
}) {
  const [text, setText] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // Back/Forward or "Clear filters" changed the URL: show it, unless the user is typing here.
  useEffect(() => {
    if (document.activeElement !== input.current) setText(value);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <label className="block text-sm">
      <span className="font-medium text-slate-700">{field.label}</span>
      <input
        ref={input}
        type="search"
        name={field.name}
        inputMode={field.numeric ? "numeric" : undefined}
        placeholder={field.placeholder}
        autoComplete="off"
        className={`${inputClass} mt-1`}
        value={text}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => onChange(next), DEBOUNCE_MS);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            clearTimeout(timer.current);
            onChange(text);
          }
        }}
      />
    </label>
  );
}
