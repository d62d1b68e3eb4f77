"use client";

import { useTranslations } from "next-intl";
import { useId, useMemo, useRef, useState } from "react";

export type ComboboxOption = { id: number; name: string };

type Props = {
  /** From <Field>: the input's id (its label points at it), class and ARIA wiring. */
  id: string;
  className: string;
  "aria-invalid": boolean;
  "aria-describedby"?: string;
  options: ComboboxOption[];
  value: number | null;
  onChange: (id: number | null) => void;
  onBlur?: () => void;
  placeholder?: string;
  /** What the list is called, e.g. "Branches". */
  listLabel: string;
};

const MAX_SHOWN = 100;

/** A WAI-ARIA combobox whose value is always an option's id or null: leaving the field resolves the text or reverts it. */
export function Combobox({ options, value, onChange, onBlur, placeholder, listLabel, ...input }: Props) {
  const listId = useId();
  const t = useTranslations("ui.combobox");
  const ref = useRef<HTMLInputElement>(null);
  const selected = options.find((o) => o.id === value) ?? null;
  const [text, setText] = useState<string | null>(null); // null: not editing, show the selection
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);

  const shown = text ?? selected?.name ?? "";
  const matches = useMemo(() => {
    const q = (text ?? "").trim().toLowerCase();
    return q ? options.filter((o) => o.name.toLowerCase().includes(q)) : options;
  }, [options, text]);
  const visible = matches.slice(0, MAX_SHOWN);

  const choose = (option: ComboboxOption | null) => {
    onChange(option ? option.id : null);
    setText(null);
    setOpen(false);
  };

  const commit = () => {
    if (text === null) return;
    const q = text.trim().toLowerCase();
    if (!q) return choose(null);
    const exact = options.find((o) => o.name.toLowerCase() === q) ?? (matches.length === 1 ? matches[0] : undefined);
    if (exact) return choose(exact);
    setText(null);
    setOpen(false);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!open) {
        setOpen(true);
        setActive(Math.max(0, visible.findIndex((o) => o.id === value)));
        return;
      }
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (visible.length ? (i + step + visible.length) % visible.length : 0));
    } else if (e.key === "Enter" && open) {
      e.preventDefault();
      const option = visible[active];
      if (option) choose(option);
    } else if (e.key === "Escape" && (open || text !== null)) {
      e.preventDefault();
      setText(null);
      setOpen(false);
    }
  };

  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <div className="relative">
      <input
        {...input}
        ref={ref}
        type="text"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && visible[active] ? optionId(active) : undefined}
        autoComplete="off"
        placeholder={placeholder}
        className={`${input.className} pe-16`}
        value={shown}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          commit();
          onBlur?.();
        }}
      />
      <div className="absolute inset-y-0 end-1 flex items-center gap-0.5">
        {selected ? (
          <button
            type="button"
            tabIndex={-1}
            aria-label={t("clear", { name: selected.name })}
            className="rounded px-1.5 text-slate-400 hover:text-slate-700"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(null)}
          >
            ×
          </button>
        ) : null}
        <button
          type="button"
          tabIndex={-1}
          aria-label={t(open ? "close" : "show", { list: listLabel.toLowerCase() })}
          className="rounded px-1.5 text-slate-400 hover:text-slate-700"
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            setOpen((o) => !o);
            ref.current?.focus();
          }}
        >
          ▾
        </button>
      </div>
      <div
        hidden={!open}
        className="absolute z-20 mt-1 w-full overflow-hidden rounded-md border border-slate-200 bg-white text-sm shadow-lg"
      >
        <ul id={listId} role="listbox" aria-label={listLabel} className="max-h-64 overflow-auto py-1">
          {visible.map((o, i) => (
            <li
              key={o.id}
              id={optionId(i)}
              role="option"
              aria-selected={o.id === value}
              className={`cursor-pointer px-3 py-1.5 ${i === active ? "bg-brand-50 text-brand-800" : "text-slate-800"} ${o.id === value ? "font-semibold" : ""}`}
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => setActive(i)}
              onClick={() => choose(o)}
            >
              {o.name}
            </li>
          ))}
        </ul>
        {visible.length === 0 ? <p className="px-3 py-2 text-slate-500">{t("noMatch")}</p> : null}
        {matches.length > visible.length ? (
          <p className="border-t border-slate-100 px-3 py-1.5 text-xs text-slate-500">
            {t("more", { count: matches.length - visible.length })}
          </p>
        ) : null}
      </div>
    </div>
  );
}
