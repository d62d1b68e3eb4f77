"use client";

import { useId, useState } from "react";
import { buttonClass } from "@/components/ui/button-styles";
import { inputClass } from "@/components/ui/input-styles";
import { Modal } from "@/components/ui/modal";

export type ShownSecret = { url: string; secret: string; note: string };

/** A signing secret, shown this once (creation, rotation): closing the dialog loses it. */
export function SecretDialog({ shown, onClose }: { shown: ShownSecret | null; onClose: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.secret);
      setCopied(true);
    } catch {
      document.getElementById(`${id}-secret`)?.focus();
    }
  };
  const close = () => {
    setCopied(false);
    onClose();
  };
  return (
    <Modal open={shown !== null} onClose={close} labelledBy={`${id}-title`} describedBy={`${id}-note`}>
      <div className="space-y-4 p-6 whitespace-normal">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          Signing secret
        </h2>
        <p className="text-sm break-all text-slate-600">
          For <bdi>{shown?.url}</bdi>
        </p>
        <p id={`${id}-note`} className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <strong>Shown only once.</strong> Copy it into the receiving application now: the console never shows it again. {shown?.note}
        </p>
        <div>
          <label htmlFor={`${id}-secret`} className="block text-sm font-medium text-slate-700">
            Secret
          </label>
          <input id={`${id}-secret`} readOnly value={shown?.secret ?? ""} className={`${inputClass} mt-1 font-mono text-xs`} onFocus={(e) => e.currentTarget.select()} />
        </div>
        <div className="flex flex-wrap justify-end gap-3">
          <span aria-live="polite" className="mr-auto self-center text-sm text-emerald-700">
            {copied ? "Copied." : ""}
          </span>
          <button type="button" className={buttonClass.secondary} onClick={copy}>
            Copy secret
          </button>
          <button type="button" className={buttonClass.primary} onClick={close}>
            I have copied it
          </button>
        </div>
      </div>
    </Modal>
  );
}
