"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";
import { buttonClass } from "./button-styles";
import { Modal } from "./modal";

/** A question with Cancel (focused first) and the action it confirms. */
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
  const id = useId();
  const t = useTranslations("ui");
  return (
    <Modal open={open} onClose={onClose} labelledBy={`${id}-title`} describedBy={`${id}-body`}>
      <div className="p-6">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900 [overflow-wrap:anywhere]">
          {title}
        </h2>
        <div id={`${id}-body`} className="mt-2 text-sm whitespace-normal text-slate-600 [overflow-wrap:anywhere]">
          {children}
        </div>
      </div>
      <div className="flex justify-end gap-3 border-t border-slate-100 bg-slate-50 px-6 py-4">
        <button type="button" className={buttonClass.secondary} onClick={onClose} autoFocus>
          {t("cancel")}
        </button>
        <button type="button" className={buttonClass.danger} onClick={onConfirm} disabled={pending}>
          {pending ? t("working") : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
