"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { lazy, Suspense, useId, useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { inputClass } from "@/components/ui/input-styles";
import type { MenuView } from "@/lib/views/menu";
import type { ViewResource } from "@/lib/views/resources";
import { saveViewAction, setDefaultViewAction } from "./actions";
import { callAction } from "@/components/ui/call-action";

// The Views menu's client parts: Edit per view and two forms (views-menu.tsx renders the rest on the server).

// A view's actions are loaded when its Edit button is first opened: most visits to a list never
// edit a view, so their code stays out of the list's first load (docs/decisions/0027-saved-views.md).
// React.lazy rather than next/dynamic: it is rendered only once opened, never on the server,
// and next/dynamic's loader would itself add to the first load.
const ViewEditor = lazy(() => import("./view-actions").then((m) => ({ default: m.ViewEditor })));

/** The Edit button beside a view one may change, and the view's actions below it once opened. */
export function EditView({ view, resource, update }: { view: MenuView; resource: ViewResource; update: { query: string; columns: string[] | null } | null }) {
  const t = useTranslations("views");
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
        className={`${buttonClass.ghost} shrink-0 px-2 py-1 text-xs aria-expanded:bg-slate-100 aria-expanded:text-slate-900`}
      >
        {t.rich("menu.edit", { name: view.name, sr: (c) => <span className="sr-only">{c}</span> })}
      </button>
      <div id={id} hidden={!open} className="mb-2 basis-full rounded border border-slate-200 bg-slate-50 p-2">
        {open ? (
          <Suspense fallback={<p className="text-xs text-slate-500">{t("loading")}</p>}>
            <ViewEditor view={view} resource={resource} update={update} />
          </Suspense>
        ) : null}
      </div>
    </>
  );
}

/** Makes the view the address is the list's default view, or stops it being one. */
export function DefaultToggle({ resource, view }: { resource: ViewResource; view: { id: number; name: string; isDefault: boolean } }) {
  const t = useTranslations("views");
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const toggle = () =>
    startTransition(async () => {
      const result = await callAction(() => setDefaultViewAction({ resource, id: view.isDefault ? null : view.id }));
      if (!result) return notify("error", t("offline"));
      notify(result.ok ? "success" : "error", result.ok ? (result.message ?? t("saved")) : (result.formError ?? t("notSaved")));
      if (result.ok) router.refresh();
    });
  return (
    <button type="button" onClick={toggle} disabled={pending} className={`${buttonClass.ghost} w-full justify-start py-1 text-xs`}>
      {/* One span: the button lays out its children as flex items. */}
      <span className="text-start">
        {t.rich(view.isDefault ? "menu.stopDefault" : "menu.makeDefault", { name: view.name, bdi: (c) => <bdi>{c}</bdi> })}
      </span>
    </button>
  );
}

/** Saves the address's filters and sort (`query`) and its columns as a view. */
export function SaveView({ resource, query, columns }: { resource: ViewResource; query: string; columns: string[] | null }) {
  const t = useTranslations("views");
  const router = useRouter();
  const id = useId();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      aria-labelledby={`${id}-title`}
      className="space-y-2 border-t border-slate-200 pt-3"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const data = new FormData(form);
        startTransition(async () => {
          const result = await callAction(() =>
            saveViewAction({ resource, name: String(data.get("name") ?? ""), shared: data.get("shared") === "on", query, columns }),
          );
          if (!result) return setError(t("save.offline"));
          if (!result.ok) {
            setError(result.fieldErrors?.name?.[0] ?? result.formError ?? t("save.failed"));
            return;
          }
          setError(null);
          form.reset();
          notify("success", result.message ?? t("save.done"));
          router.refresh();
        });
      }}
    >
      <h2 id={`${id}-title`} className="text-xs font-semibold uppercase tracking-wide text-slate-500">
        {t("save.title")}
      </h2>
      <label className="block">
        <span className="font-medium text-slate-700">{t("save.name")}</span>
        <input
          name="name"
          required
          maxLength={60}
          autoComplete="off"
          className={`${inputClass} mt-1`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </label>
      <p id={`${id}-error`} aria-live="polite" className="text-sm text-red-700">
        {error}
      </p>
      <label className="flex items-center gap-2">
        <input type="checkbox" name="shared" className="size-4 accent-brand-600" />
        {t("save.share")}
      </label>
      <button type="submit" disabled={pending} className={`${buttonClass.primary} w-full`}>
        {pending ? t("save.saving") : t("save.submit")}
      </button>
    </form>
  );
}
