import { useTranslations } from "next-intl";
import { useId } from "react";
import { ClientMessages } from "@/components/client-messages";
import { VIEWS_CLIENT_WORDS } from "@/lib/i18n/client-words";
import { buttonClass } from "@/components/ui/button-styles";
import { QueryChips } from "@/components/list/filter-chips";
import { Disclosure } from "@/components/ui/disclosure";
import { withParams, type RawParams } from "@/lib/list/params";
import type { MenuView, ViewsState } from "@/lib/views/menu";
import { VIEW_LISTS } from "@/lib/views/resources";
import { problemWords } from "@/lib/i18n/problem";
import { problemText, viewFields } from "./toolbars";
import { DefaultToggle, EditView, SaveView } from "./views-menu-forms";

// Its rules are app/globals.css's: the menu's links are on every list page.
const linkClass = "menu-link";

/**
 * The list toolbar's Views menu: a disclosure of plain links (the user's own views, at most ten
 * shared ones of others, then "All views…"), an Edit beside each view one may change, and the
 * Save view form (docs/decisions/0027-saved-views.md). A server component: only
 * the disclosure's Escape, the Edit buttons and the two forms are client code
 * (docs/decisions/0034-page-javascript.md).
 */
export function ViewsMenu({ state, params }: { state: ViewsState; params: RawParams }) {
  const back = `${VIEW_LISTS[state.resource].path}${withParams(params, { page: undefined })}`;
  const manageHref = `/views?resource=${state.resource}&back=${encodeURIComponent(back)}`;
  const own = state.views.filter((v) => v.own);
  const shared = state.views.filter((v) => !v.own);
  const t = useTranslations("views");
  const label = state.resource === "subscribers" ? t("menu.allSubscribers") : t("menu.allBranches");
  // Its forms and Edit buttons are client code: the menu hands them `views` itself, on any list page.
  return (
    <ClientMessages namespaces={VIEWS_CLIENT_WORDS}>
      <Disclosure className="group relative">
        <summary
          {...(state.current ? { title: t("menu.titleCurrent", { name: state.current.name }) } : {})}
          className={`${buttonClass.secondary} max-w-[16rem] cursor-pointer list-none [&::-webkit-details-marker]:hidden`}
        >
          <span className="truncate">
            {state.current ? t.rich("menu.buttonCurrent", { name: state.current.name, bdi: (c) => <bdi>{c}</bdi> }) : t("menu.button")}
          </span>
          <span aria-hidden="true" className="text-slate-400 transition-transform group-open:rotate-180">
            ▾
          </span>
        </summary>
        <div className="absolute end-0 z-30 mt-2 max-h-[75vh] w-[min(22rem,calc(100vw-2rem))] space-y-4 overflow-y-auto rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-lg">
          <nav aria-label={t("menu.label")} className="space-y-3">
            <ul>
              <li>
                <a href={state.allHref} className={linkClass} aria-current={state.isAll && !state.current ? "page" : undefined}>
                  {label}
                </a>
              </li>
            </ul>
            <ViewList title={t("menu.yours")} views={own} state={state} empty={t("menu.noneYet")} />
            {shared.length ? <ViewList title={t("menu.shared")} views={shared} state={state} /> : null}
            {/* The menu holds at most MENU_SHARED_VIEWS shared views of others (lib/views/queries.ts): the rest are there. */}
            <a href={manageHref} className={linkClass}>
              {t("menu.allViews")}
            </a>
          </nav>
          {state.current ? <DefaultToggle resource={state.resource} view={{ id: state.current.id, name: state.current.name, isDefault: state.current.isDefault }} /> : null}
          {state.query === null ? (
            <p className="text-xs text-slate-600">{t("menu.correctFilters")}</p>
          ) : (
            <SaveView resource={state.resource} query={state.query} columns={state.columns} />
          )}
          <a href={manageHref} className="block text-xs font-medium text-slate-600 underline-offset-2 hover:text-slate-900 hover:underline">
            {t("menu.manage")}
          </a>
        </div>
      </Disclosure>
    </ClientMessages>
  );
}

function ViewList({ title, views, state, empty }: { title: string; views: MenuView[]; state: ViewsState; empty?: string }) {
  const t = useTranslations("views");
  const problems = useTranslations("problems");
  const fields = viewFields(state.resource, useTranslations(), useTranslations("branches"));
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
                  {v.isDefault ? <> <span className="text-xs text-slate-500">{t("menu.default")}</span></> : null}
                  {!v.own ? <> <span className="text-xs text-slate-500">{t.rich("menu.by", { owner: v.owner, bdi: (c) => <bdi>{c}</bdi> })}</span></> : null}
                  {v.own && v.shared ? <> <span className="text-xs text-slate-500">{t("menu.sharedMark")}</span></> : null}
                </a>
              ) : (
                <div className="min-w-0 flex-1 px-2 py-1">
                  <span className="text-slate-500 line-through">
                    <bdi>{v.name}</bdi>
                  </span>{" "}
                  <span className="text-xs font-medium text-red-700">{t("menu.broken")}</span> <span className="text-xs text-slate-600">{problemText(v, (text) => problemWords(problems as unknown as Parameters<typeof problemWords>[0], text), fields)}</span>
                </div>
              )}
              {/* "Update" takes the list's filters and columns, unless they are this view's already or do not parse. */}
              {v.changeable ? (
                <EditView view={v} resource={state.resource} update={state.query === null || current?.id === v.id ? null : { query: state.query, columns: state.columns }} />
              ) : null}
              {v.href && v.query ? (
                <div className="basis-full px-2 pb-1.5">
                  <QueryChips fields={fields} query={v.query} label={t("chipsOf", { name: v.name })} />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
