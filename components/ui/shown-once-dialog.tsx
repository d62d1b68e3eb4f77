"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { buttonClass } from "@/components/ui/button-styles";
import { inputClass } from "@/components/ui/input-styles";
import { Modal } from "@/components/ui/modal";

/** A value the console keeps no readable copy of (a set-password link, a signing secret): shown this once, closing the dialog loses it. */
export function ShownOnceDialog({
  value,
  title,
  note,
  label,
  copyLabel,
  doneLabel,
  onClose,
}: {
  value: string | null;
  title: React.ReactNode;
  note: React.ReactNode;
  label: string;
  copyLabel: string;
  doneLabel: string;
  onClose: () => void;
}) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const t = useTranslations("ui");
  const copy = async () => {
    if (!value) return;
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      document.getElementById(`${id}-value`)?.focus();
    }
  };
  const close = () => {
    setCopied(false);
    onClose();
  };
  return (
    <Modal open={value !== null} onClose={close} labelledBy={`${id}-title`} describedBy={`${id}-note`}>
      {/* whitespace-normal: the dialog may sit in a table cell that does not wrap (a row's actions). */}
      <div className="space-y-4 p-6 whitespace-normal">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <div id={`${id}-note`} className="space-y-2 text-sm text-slate-600">
          {note}
        </div>
        <div>
          <label htmlFor={`${id}-value`} className="block text-sm font-medium text-slate-700">
            {label}
          </label>
          <input id={`${id}-value`} readOnly value={value ?? ""} className={`${inputClass} mt-1 font-mono text-xs`} onFocus={(e) => e.currentTarget.select()} />
        </div>
        {/* method="dialog": the button closes the dialog itself, so onClose runs once, from its close event. */}
        <form method="dialog" className="flex flex-wrap justify-end gap-3">
          <span aria-live="polite" className="me-auto self-center text-sm text-emerald-700">
            {copied ? t("copied") : ""}
          </span>
          <button type="button" className={buttonClass.secondary} onClick={copy}>
            {copyLabel}
          </button>
          <button className={buttonClass.primary}>{doneLabel}</button>
        </form>
      </div>
    </Modal>
  );
}
