"use client";

import { useEffect, useId, useRef, useState } from "react";
import { buttonClass } from "@/components/ui/button-styles";
import { inputClass } from "@/components/ui/input-styles";

/** Shown once: closing the dialog loses it (only its hash is stored). */
export function LinkDialog({ url, name, onClose }: { url: string | null; name: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (url && !dialog.open) dialog.showModal();
    if (!url && dialog.open) dialog.close();
    setCopied(false);
  }, [url]);

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      document.getElementById(`${id}-url`)?.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      onClose={onClose}
      // whitespace-normal: the dialog sits in a table cell that does not wrap (the row's actions).
      className="m-auto w-[min(36rem,calc(100vw-2rem))] whitespace-normal rounded-xl border border-slate-200 p-0 text-left shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="space-y-4 p-6">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          Set-password link for <bdi>{name}</bdi>
        </h2>
        <p className="text-sm text-slate-600">
          Send this link to them yourself. It works once, for 24 hours, and is shown only now: copy it before you close this window.
        </p>
        <div>
          <label htmlFor={`${id}-url`} className="block text-sm font-medium text-slate-700">
            Link
          </label>
          <input id={`${id}-url`} readOnly value={url ?? ""} className={`${inputClass} mt-1 font-mono text-xs`} onFocus={(e) => e.currentTarget.select()} />
        </div>
        <div className="flex justify-end gap-3">
          <span aria-live="polite" className="mr-auto self-center text-sm text-emerald-700">
            {copied ? "Copied." : ""}
          </span>
          <button type="button" className={buttonClass.secondary} onClick={copy}>
            Copy link
          </button>
          <button type="button" className={buttonClass.primary} onClick={() => ref.current?.close()}>
            Done
          </button>
        </div>
      </div>
    </dialog>
  );
}
