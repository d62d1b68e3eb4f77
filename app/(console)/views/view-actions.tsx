"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { inputClass } from "@/components/ui/input-styles";
import type { ActionResult } from "@/lib/actions";
import type { MenuView } from "@/lib/views/menu";
import type { ViewResource } from "@/lib/views/resources";
import { deleteViewAction, setDefaultViewAction, updateViewAction } from "./actions";
import { callAction } from "@/components/ui/call-action";

/** The list's current filters and columns, for "Update"; null: no Update button. */
type Update = { query: string; columns: string[] | null } | null;

/** The view's address, whole, on the clipboard; the toast says so (or that it could not). */
async function copyLink(view: MenuView, t: ReturnType<typeof useTranslations<"views">>) {
  try {
    await navigator.clipboard.writeText(new URL(view.href!, window.location.origin).href);
    notify("success", t("actions.copied", { name: view.name }));
  } catch {
    notify("error", t("actions.notCopied"));
  }
}

/** The view's name (its link), renamed in place by its owner or an administrator: Enter saves, Escape cancels. */
export function ViewTitle({ view, as: Tag = "h2", className = "text-base font-semibold" }: { view: MenuView; as?: "h2" | "p"; className?: string }) {
  const t = useTranslations("views");
  const router = useRouter();
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const name = <bdi>{view.name}</bdi>;
  if (!editing) {
    return (
      <div className="flex min-w-0 items-center gap-1">
        <Tag className={className}>{view.href ? <a href={view.href} className="text-brand-700 underline-offset-2 hover:underline">{name}</a> : name}</Tag>
        {view.changeable ? (
          <button type="button" className={`${buttonClass.ghost} px-2 py-1 text-xs`} onClick={() => setEditing(true)}>
            {t.rich("actions.rename", { name: view.name, sr: (c) => <span className="sr-only">{c}</span> })}
          </button>
        ) : null}
      </div>
    );
  }
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        const value = String(new FormData(event.currentTarget).get("name") ?? "");
        startTransition(async () => {
          const result = await callAction(() => updateViewAction({ id: view.id, name: value }));
          if (!result) return setError(t("offline"));
          if (!result.ok) return setError(result.fieldErrors?.name?.[0] ?? result.formError ?? t("notSaved"));
          notify("success", result.message ?? t("saved"));
          setEditing(false);
          router.refresh();
        });
      }}
      onKeyDown={(event) => event.key === "Escape" && setEditing(false)}
    >
      <input
        name="name"
        defaultValue={view.name}
        required
        maxLength={60}
        autoComplete="off"
        autoFocus
        aria-label={t("actions.newName", { name: view.name })}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-error`}
        className={`${inputClass} min-w-[12rem] flex-1`}
      />
      <button type="submit" disabled={pending} className={buttonClass.primary}>
        {t("actions.saveName")}
      </button>
      <button type="button" className={buttonClass.ghost} onClick={() => setEditing(false)}>
        {t("actions.cancel")}
      </button>
      <p id={`${id}-error`} aria-live="polite" className="basis-full text-sm text-red-700">
        {error}
      </p>
    </form>
  );
}

/** The menu's Edit panel: the name to rename in place, then the view's buttons. */
export function ViewEditor(props: { view: MenuView; resource: ViewResource; update: Update }) {
  return (
    <div className="space-y-2">
      {/* Not a link: the menu's own link to the view is just above. */}
      <ViewTitle view={{ ...props.view, href: null }} as="p" className="text-sm font-medium" />
      <ViewActions {...props} />
    </div>
  );
}

/** One view's buttons: copy its link, share, update to the list's filters, default, delete (confirmed, naming it). */
export function ViewActions({ view, resource, update }: { view: MenuView; resource: ViewResource; update: Update }) {
  const t = useTranslations("views");
  const router = useRouter();
  const id = useId();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const run = (call: () => Promise<ActionResult<unknown>>, after?: () => void) =>
    startTransition(async () => {
      const result = await callAction(call);
      if (!result) return setError(t("offline"));
      if (!result.ok) {
        setError(result.fieldErrors?.name?.[0] ?? result.formError ?? t("notSaved"));
        return;
      }
      setError(null);
      notify("success", result.message ?? t("saved"));
      after?.();
      router.refresh();
    });

  return (
    <div className="space-y-2">
      <p id={`${id}-error`} aria-live="polite" className="text-sm text-red-700">
        {error}
      </p>
      <div className="flex flex-wrap gap-2">
        {view.href ? (
          <button type="button" className={buttonClass.secondary} onClick={() => copyLink(view, t)}>
            {t.rich("actions.copyLink", { name: view.name, sr: (c) => <span className="sr-only">{c}</span> })}
          </button>
        ) : null}
        {view.changeable && update ? (
          <button
            type="button"
            disabled={pending}
            className={buttonClass.secondary}
            onClick={() => run(() => updateViewAction({ id: view.id, query: update.query, columns: update.columns }))}
          >
            {t("actions.update")}
          </button>
        ) : null}
        {view.changeable ? (
          <button type="button" disabled={pending} className={buttonClass.secondary} onClick={() => run(() => updateViewAction({ id: view.id, shared: !view.shared }))}>
            {view.shared ? t("actions.unshare") : t("actions.share")}
          </button>
        ) : null}
        {view.href || view.isDefault ? (
          <button
            type="button"
            disabled={pending}
            className={buttonClass.secondary}
            onClick={() => run(() => setDefaultViewAction({ resource, id: view.isDefault ? null : view.id }))}
          >
            {view.isDefault ? t("actions.stopDefault") : t("actions.makeDefault")}
          </button>
        ) : null}
        {view.changeable ? (
          <button type="button" disabled={pending} className={buttonClass.danger} onClick={() => setConfirming(true)} aria-label={t("actions.deleteLabel", { name: view.name })}>
            {t("actions.delete")}
          </button>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirming}
        title={t("actions.confirmTitle", { name: view.name })}
        confirmLabel={t("actions.confirmLabel")}
        pending={pending}
        onConfirm={() => run(() => deleteViewAction({ id: view.id }), () => setConfirming(false))}
        onClose={() => setConfirming(false)}
      >
        {t(view.shared ? "actions.confirmShared" : "actions.confirmPrivate")}
      </ConfirmDialog>
    </div>
  );
}
