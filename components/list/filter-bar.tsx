"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { buttonClass } from "@/components/ui/button-styles";
import { Disclosure } from "@/components/ui/disclosure";
import { inputClass } from "@/components/ui/input-styles";
import { useListWords } from "./words";
// Its words are useTranslations("list")'s, through useListWords (English outside any provider).

export type FilterField =
  | { kind: "text"; name: string; label: string; placeholder?: string; numeric?: boolean }
  | { kind: "select"; name: string; label: string; options: { value: string; label: string; group?: string }[] }
  | { kind: "dateRange"; label: string; from: string; to: string };

const DEBOUNCE_MS = 300;

/** A select's options by their `group` (an <optgroup> each), in order; ungrouped options stay as they are. */
function groups<O extends { group?: string }>(options: O[]) {
  const out: [string | undefined, O[]][] = [];
  for (const o of options) {
    const last = out.at(-1);
    if (last && last[0] === o.group) last[1].push(o);
    else out.push([o.group, [o]]);
  }
  return out;
}

/** The toolbar's search: a text filter shown first, outside the Filters panel. */
export type SearchField = Extract<FilterField, { kind: "text" }>;

/** A list's filters as data, so every list gets the same toolbar (docs/decisions/0018-toolbar-every-list-one-toolbar.md). */
export type ListFilters = { search: SearchField; fields: FilterField[]; keys: readonly string[] };
/** A toolbar may go without a search (a short list filtered by a select or two). */
export type ToolbarFilters = Omit<ListFilters, "search"> & { search?: SearchField };

/** Filters live in the URL, so Back/Forward, reload and shared links work; without JavaScript, a plain GET form. */
export function FilterBar({ filters: { search, fields, keys }, emptyQuery }: { filters: ToolbarFilters; emptyQuery?: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();
  const t = useListWords();

  // The last query asked for, so a debounced text change firing after a select keeps the select.
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
    const query = next.toString() || (emptyQuery ?? "");
    latest.current = query;
    startTransition(() => router.push(query ? `${pathname}?${query}` : pathname, { scroll: false }));
  };

  const active = keys.filter((key) => searchParams.get(key));

  const searchBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      if (event.key === "/" && !typing && !event.metaKey && !event.ctrlKey && !event.altKey) {
        event.preventDefault();
        searchBox.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  const hiddenActive = active.filter((key) => key !== search?.name).length;

  const grid = (
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
              <option value="">{t("filterBar.any")}</option>
              {groups(field.options).map(([group, options]) => {
                const list = options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ));
                return group ? <optgroup key={group} label={group}>{list}</optgroup> : list;
              })}
            </select>
          </label>
        ) : (
          <fieldset key={field.from} className="text-sm sm:col-span-2">
            <legend className="font-medium text-slate-700">{field.label}</legend>
            <div className="mt-1 grid grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] items-center gap-1.5">
              <input
                type="date"
                name={field.from}
                aria-label={t("filterBar.from", { label: field.label })}
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
                aria-label={t("filterBar.to", { label: field.label })}
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
  );

  return (
    <form
      method="get"
      action={pathname}
      role="search"
      aria-label={t("filterBar.label")}
      aria-busy={pending}
      className="relative rounded-lg border border-slate-200 bg-white p-3 shadow-sm"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        navigate(Object.fromEntries([...data.entries()].map(([k, v]) => [k, String(v)])));
      }}
    >
      <div className="flex flex-wrap items-end gap-2">
        {search ? (
          <TextFilter field={search} inputRef={searchBox} hideLabel className="min-w-[12rem] flex-1" value={searchParams.get(search.name) ?? ""} onChange={(v) => navigate({ [search.name]: v })} />
        ) : null}
        <Disclosure className="group">
          <summary className={`${buttonClass.secondary} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
            {t("filterBar.button", { count: hiddenActive })}
            <span aria-hidden="true" className="text-slate-400 transition-transform group-open:rotate-180">
              ▾
            </span>
          </summary>
          <div className="absolute inset-x-0 z-30 mt-2 max-h-[70vh] overflow-y-auto rounded-lg border border-slate-200 bg-white p-4 shadow-lg">{grid}</div>
        </Disclosure>
      </div>
      {["sort", "columns", "view", "back"].map((key) =>
        searchParams.get(key) ? <input key={key} type="hidden" name={key} value={searchParams.get(key)!} /> : null,
      )}
      <div className="sr-only">
        <noscript>
          <button type="submit" className={buttonClass.primary}>
            {t("filterBar.apply")}
          </button>
        </noscript>
        <span aria-live="polite">{pending ? t("filterBar.updating") : active.length ? t("filterBar.applied", { count: active.length }) : ""}</span>
      </div>
    </form>
  );
}

function TextFilter({
  field,
  value,
  onChange,
  inputRef,
  className = "",
  hideLabel = false,
}: {
  hideLabel?: boolean;
  field: Extract<FilterField, { kind: "text" }>;
  value: string;
  onChange: (value: string) => void;
  inputRef?: React.RefObject<HTMLInputElement | null>;
  className?: string;
}) {
  const [text, setText] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // The URL changed elsewhere: show it, unless the user is typing. The whole query counts, not only this field's value.
  const query = useSearchParams().toString();
  useEffect(() => {
    if (document.activeElement !== input.current) setText(value);
  }, [value, query]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <label className={`block text-sm ${className}`}>
      <span className={hideLabel ? "sr-only" : "font-medium text-slate-700"}>{field.label}</span>
      <input
        ref={(element) => {
          input.current = element;
          if (inputRef) inputRef.current = element;
        }}
        type="search"
        name={field.name}
        inputMode={field.numeric ? "numeric" : undefined}
        placeholder={field.placeholder}
        autoComplete="off"
        className={`${inputClass} ${hideLabel ? "" : "mt-1"}`}
        value={text}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => {
            timer.current = undefined;
            onChange(next);
          }, DEBOUNCE_MS);
        }}
        onBlur={() => {
          // Apply now: a waiting change would land after the user's next step and undo it.
          if (timer.current === undefined) return;
          clearTimeout(timer.current);
          timer.current = undefined;
          if (text !== value) onChange(text);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            clearTimeout(timer.current);
            timer.current = undefined;
            onChange(text);
          }
        }}
      />
    </label>
  );
}
