"use client";

import { useRouter } from "next/navigation";
import { lazy, Suspense, useId, useRef, useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { inputClass } from "@/components/ui/field";
import type { MenuView, ViewsState } from "@/lib/views/menu";
import { saveViewAction, setDefaultViewAction } from "./actions";

// A view's actions are loaded when its Edit button is first opened: most visits to a list never
// edit a view, so their code stays out of the list's first load (docs/decisions/0027-saved-views.md).
// React.lazy rather than next/dynamic: it is rendered only once opened, never on the server,
// and next/dynamic's loader would itself add to the first load.
const ViewActions = lazy(() => import("./view-actions").then((m) => ({ default: m.ViewActions })));

const linkClass = "block rounded px-2 py-1 text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600 aria-[current=page]:bg-brand-50 aria-[current=page]:font-medium aria-[current=page]:text-brand-900";

/**
 * A disclosure (a native <details>) holding links and one form: opened with Enter or Space,
 * closed with Escape back on its button; each view is a link to the list's own address, and a
 * view one may change has an Edit button beside it revealing its actions.
 */
export function ViewsMenuPanel({ state, manageHref }: { state: ViewsState; manageHref: string }) {
  const panel = useRef<HTMLDetailsElement>(null);
  const own = state.views.filter((v) => v.own);
  const shared = state.views.filter((v) => !v.own);
  const label = state.resource === "subscribers" ? "All subscribers" : "All branches";
  return (
    <details
      ref={panel}
      className="group relative"
      onKeyDown={(e) => {
        // A confirmation dialog's own Escape closes the dialog only.
        if (e.key === "Escape" && panel.current?.open && !(e.target instanceof Element && e.target.closest("dialog"))) {
          e.preventDefault();
          panel.current.open = false;
          panel.current.querySelector("summary")?.focus();
        }
      }}
    >
      <summary
        title={state.current ? `Views: ${state.current.name}` : undefined}
        className={`${buttonClass.secondary} max-w-[16rem] cursor-pointer list-none [&::-webkit-details-marker]:hidden`}
      >
        <span className="truncate">
          Views{state.current ? <>: <bdi>{state.current.name}</bdi></> : null}
        </span>
        <span aria-hidden="true" className="text-slate-400 transition-transform group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="absolute right-0 z-30 mt-2 max-h-[75vh] w-[min(22rem,calc(100vw-2rem))] space-y-4 overflow-y-auto rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-lg">
        <nav aria-label="Saved views" className="space-y-3">
          <ul>
            <li>
              <a href={state.allHref} className={linkClass} aria-current={state.isAll && !state.current ? "page" : undefined}>
                {label}
              </a>
            </li>
          </ul>
          <ViewList title="Your views" views={own} state={state} empty="None yet: save the filters you use below." />
          {shared.length ? <ViewList title="Shared with everyone" views={shared} state={state} /> : null}
        </nav>
        {state.current ? <DefaultToggle state={state} view={state.current} /> : null}
        <SaveView state={state} />
        <a href={manageHref} className="block text-xs font-medium text-slate-600 underline-offset-2 hover:text-slate-900 hover:underline">
          Manage views…
        </a>
      </div>
    </details>
  );
}

function ViewList({ title, views, state, empty }: { title: string; views: MenuView[]; state: ViewsState; empty?: string }) {
  const id = useId();
  const current = state.current;
  return (
    <div>
      <h2 id={id} className="px-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
        {title}
      </h2>
      {views.length === 0 ? (
        <p className="px-2 py-1 text-xs text-slate-500">{empty}</p>
      ) : (
        <ul aria-labelledby={id} className="mt-1">
          {views.map((v) => (
            <li key={v.id} className="flex flex-wrap items-start gap-x-1">
              {v.href ? (
                <a href={v.href} className={`${linkClass} min-w-0 flex-1`} aria-current={current?.id === v.id ? "page" : undefined}>
                  <bdi>{v.name}</bdi>
                  {v.isDefault ? <> <span className="text-xs text-slate-500">(default)</span></> : null}
                  {!v.own ? <> <span className="text-xs text-slate-500">by <bdi>{v.owner}</bdi></span></> : null}
                  {v.own && v.shared ? <> <span className="text-xs text-slate-500">(shared)</span></> : null}
                </a>
              ) : (
                <div className="min-w-0 flex-1 px-2 py-1">
                  <span className="text-slate-500 line-through">
                    <bdi>{v.name}</bdi>
                  </span>{" "}
                  <span className="text-xs font-medium text-red-700">broken:</span> <span className="text-xs text-slate-600">{v.problem}</span>
                </div>
              )}
              {v.changeable ? <EditView view={v} state={state} /> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The Edit button beside a view one may change, and the view's actions below it once opened.
 * "Update" takes the list's current filters and columns, unless they are this view's already or
 * do not parse.
 */
function EditView({ view, state }: { view: MenuView; state: ViewsState }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const update = state.query === null || state.current?.id === view.id ? null : { query: state.query, columns: state.columns };
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
        className={`${buttonClass.ghost} shrink-0 px-2 py-1 text-xs aria-expanded:bg-slate-100 aria-expanded:text-slate-900`}
      >
        Edit<span className="sr-only"> view “{view.name}”</span>
      </button>
      <div id={id} hidden={!open} className="mb-2 basis-full rounded border border-slate-200 bg-slate-50 p-2">
        {open ? (
          <Suspense fallback={<p className="text-xs text-slate-500">Loading…</p>}>
            <ViewActions view={view} resource={state.resource} update={update} />
          </Suspense>
        ) : null}
      </div>
    </>
  );
}

function DefaultToggle({ state, view }: { state: ViewsState; view: MenuView }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const toggle = () =>
    startTransition(async () => {
      const result = await setDefaultViewAction({ resource: state.resource, id: view.isDefault ? null : view.id });
      notify(result.ok ? "success" : "error", result.ok ? (result.message ?? "Saved.") : (result.formError ?? "Not saved."));
      if (result.ok) router.refresh();
    });
  return (
    <button type="button" onClick={toggle} disabled={pending} className={`${buttonClass.ghost} w-full justify-start py-1 text-xs`}>
      {/* One span: the button lays out its children as flex items. */}
      <span className="text-left">
        {view.isDefault ? <>Stop opening the list with “<bdi>{view.name}</bdi>”</> : <>Open the list with “<bdi>{view.name}</bdi>” by default</>}
      </span>
    </button>
  );
}

function SaveView({ state }: { state: ViewsState }) {
  const router = useRouter();
  const id = useId();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  if (state.query === null) return <p className="text-xs text-slate-600">Correct the filters to save them as a view.</p>;
  return (
    <form
      aria-labelledby={`${id}-title`}
      className="space-y-2 border-t border-slate-200 pt-3"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const data = new FormData(form);
        startTransition(async () => {
          const result = await saveViewAction({
            resource: state.resource,
            name: String(data.get("name") ?? ""),
            shared: data.get("shared") === "on",
            query: state.query ?? "",
            columns: state.columns,
          });
          if (!result.ok) {
            setError(result.fieldErrors?.name?.[0] ?? result.formError ?? "The view was not saved.");
            return;
          }
          setError(null);
          form.reset();
          notify("success", result.message ?? "View saved.");
          router.refresh();
        });
      }}
    >
      <h2 id={`${id}-title`} className="text-xs font-semibold uppercase tracking-wide text-slate-500">
        Save these filters as a view
      </h2>
      <label className="block">
        <span className="font-medium text-slate-700">Name</span>
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
        Share with everyone
      </label>
      <button type="submit" disabled={pending} className={`${buttonClass.primary} w-full`}>
        {pending ? "Saving…" : "Save view"}
      </button>
    </form>
  );
}
