"use client";

import { useEffect, useId, useRef } from "react";
import { buttonClass } from "./button-styles";

/** Built on <dialog>, so the browser traps and returns focus. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  pending,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: React.ReactNode;
  confirmLabel: string;
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onClose={onClose}
      className="m-auto w-full max-w-md rounded-xl border border-slate-200 p-0 text-left shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="p-6">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <div id={`${id}-body`} className="mt-2 text-sm whitespace-normal text-slate-600">
          {children}
        </div>
      </div>
      <div className="flex justify-end gap-3 border-t border-slate-100 bg-slate-50 px-6 py-4">
        <button type="button" className={buttonClass.secondary} onClick={onClose} autoFocus>
          Cancel
        </button>
        <button type="button" className={buttonClass.danger} onClick={onConfirm} disabled={pending}>
          {pending ? "Working…" : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
