"use client";

import { useLayoutEffect, useRef, useState } from "react";

/**
 * A modal on <dialog>, so the browser traps and returns focus. The dialog is rendered from its
 * first opening on, its content while open only: a list with a dialog per row (delete a branch,
 * say) sends and renders none until one is opened. Once opened it stays, so closing it is the
 * browser's (focus back on the button that opened it).
 */
export function Modal({ open, onClose, labelledBy, describedBy, children }: { open: boolean; onClose: () => void; labelledBy: string; describedBy?: string; children: React.ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  // Before paint: the content and the open state change in the same frame.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  if (!opened) return null;
  return (
    <dialog
      ref={ref}
      aria-labelledby={open ? labelledBy : undefined}
      aria-describedby={open ? describedBy : undefined}
      onClose={onClose}
      className="m-auto w-full max-w-md rounded-xl border border-slate-200 p-0 text-start shadow-xl backdrop:bg-slate-900/40"
    >
      {open ? children : null}
    </dialog>
  );
}
