"use client";

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

/** The list's current filters and columns, for "Update"; null: no Update button. */
type Update = { query: string; columns: string[] | null } | null;

/** One view's buttons: rename, share, update to the list's filters, default, delete (confirmed, naming it). */
export function ViewActions({ view, resource, update }: { view: MenuView; resource: ViewResource; update: Update }) {
  const router = useRouter();
  const id = useId();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const run = (call: () => Promise<ActionResult<unknown>>, after?: () => void) =>
    startTransition(async () => {
      const result = await call();
      if (!result.ok) {
        setError(result.fieldErrors?.name?.[0] ?? result.formError ?? "Not saved.");
        return;
      }
      setError(null);
      notify("success", result.message ?? "Saved.");
      after?.();
      router.refresh();
    });

  return (
    <div className="space-y-2">
      {view.changeable ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            const name = String(new FormData(event.currentTarget).get("name") ?? "");
            run(() => updateViewAction({ id: view.id, name }));
          }}
        >
          <label className="block min-w-[12rem] flex-1">
            <span className="text-xs font-medium text-slate-700">
              Name<span className="sr-only"> of {view.name}</span>
            </span>
            <input
              name="name"
              defaultValue={view.name}
              required
              maxLength={60}
              autoComplete="off"
              className={`${inputClass} mt-1`}
              aria-invalid={error ? true : undefined}
              aria-describedby={`${id}-error`}
            />
          </label>
          <button type="submit" disabled={pending} className={buttonClass.secondary} aria-label={`Rename ${view.name}`}>
            Rename
          </button>
        </form>
      ) : null}
      <p id={`${id}-error`} aria-live="polite" className="text-sm text-red-700">
        {error}
      </p>
      <div className="flex flex-wrap gap-2">
        {view.changeable && update ? (
          <button
            type="button"
            disabled={pending}
            className={buttonClass.secondary}
            onClick={() => run(() => updateViewAction({ id: view.id, query: update.query, columns: update.columns }))}
          >
            Update to the list&rsquo;s current filters
          </button>
        ) : null}
        {view.changeable ? (
          <button type="button" disabled={pending} className={buttonClass.secondary} onClick={() => run(() => updateViewAction({ id: view.id, shared: !view.shared }))}>
            {view.shared ? "Stop sharing" : "Share with everyone"}
          </button>
        ) : null}
        {view.href || view.isDefault ? (
          <button
            type="button"
            disabled={pending}
            className={buttonClass.secondary}
            onClick={() => run(() => setDefaultViewAction({ resource, id: view.isDefault ? null : view.id }))}
          >
            {view.isDefault ? "Stop opening the list with it" : "Open the list with it by default"}
          </button>
        ) : null}
        {view.changeable ? (
          <button type="button" disabled={pending} className={buttonClass.danger} onClick={() => setConfirming(true)} aria-label={`Delete ${view.name}`}>
            Delete
          </button>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Delete the view “${view.name}”?`}
        confirmLabel="Delete view"
        pending={pending}
        onConfirm={() => run(() => deleteViewAction({ id: view.id }), () => setConfirming(false))}
        onClose={() => setConfirming(false)}
      >
        {view.shared
          ? "It is shared: it goes for everyone who uses it. The rows it shows are not touched. This cannot be undone."
          : "The rows it shows are not touched. This cannot be undone."}
      </ConfirmDialog>
    </div>
  );
}
