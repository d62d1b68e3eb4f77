"use client";

import { useId, useLayoutEffect, useRef } from "react";
import { buttonClass } from "./button-styles";

/**
 * Built on <dialog>, so the browser traps and returns focus. Its content is rendered while open
 * only: a list with a dialog per row (delete a branch, say) sends and renders no closed dialogs.
 */
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
  // Before paint: the content and the open state change in the same frame.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={open ? `${id}-title` : undefined}
      aria-describedby={open ? `${id}-body` : undefined}
      onClose={onClose}
      className="m-auto w-full max-w-md rounded-xl border border-slate-200 p-0 text-left shadow-xl backdrop:bg-slate-900/40"
    >
      {open ? (
        <>
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
        </>
      ) : null}
    </dialog>
  );
}
