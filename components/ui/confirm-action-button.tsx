"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { ConfirmDialog } from "./confirm-dialog";
import { callAction } from "@/components/ui/call-action";

type Outcome = { ok: true; message?: string } | { ok: false; formError?: string };
type Router = ReturnType<typeof useRouter>;

/**
 * A button that asks first, naming what the action affects, then runs a server action and says
 * how it went in a toast. After a success the page is refreshed, unless `then` goes elsewhere.
 */
export function ConfirmActionButton<R extends Outcome>({
  label,
  ariaLabel,
  className,
  title,
  confirmLabel,
  children,
  run,
  done,
  failed,
  onOpen,
  then = (_result, router) => router.refresh(),
  refreshOnFailure = false,
}: {
  label: React.ReactNode;
  ariaLabel?: string;
  className: string;
  title: string;
  confirmLabel: string;
  /** What the confirmation says: what the action affects, and whether it can be undone. */
  children: React.ReactNode;
  run: () => Promise<R>;
  /** The toast of a success whose answer says nothing. */
  done: string;
  /** The toast of a failure whose answer says nothing, e.g. "The token could not be revoked." */
  failed: string;
  onOpen?: () => void;
  then?: (result: Extract<R, { ok: true }>, router: Router) => void;
  /** A refused action may mean the page is stale (someone else changed it first): show it anew. */
  refreshOnFailure?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [pending, start] = useTransition();
  const router = useRouter();
  const t = useTranslations("ui");
  const confirm = () =>
    start(async () => {
      const result = await callAction(run);
      if (!result) return notify("error", t("checkConnection", { failed }));
      if (result.ok) {
        notify("success", result.message ?? done);
        setOpen(false);
        then(result as Extract<R, { ok: true }>, router);
        return;
      }
      notify("error", result.formError ?? failed);
      if (refreshOnFailure) {
        setOpen(false);
        router.refresh();
      }
    });
  return (
    <>
      <button
        type="button"
        className={className}
        aria-label={ariaLabel}
        onClick={() => {
          setOpen(true);
          onOpen?.();
        }}
      >
        {label}
      </button>
      <ConfirmDialog open={open} title={title} confirmLabel={confirmLabel} pending={pending} onConfirm={confirm} onClose={() => setOpen(false)}>
        {children}
      </ConfirmDialog>
    </>
  );
}
