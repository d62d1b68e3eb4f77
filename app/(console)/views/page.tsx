import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { VIEWS_CLIENT_WORDS } from "@/lib/i18n/client-words";
import { QueryChips } from "@/components/list/filter-chips";
import { InvalidQuery, PastLastPage, ResultSummary } from "@/components/list/list-states";
import { Pager } from "@/components/list/pager";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageUser } from "@/lib/auth/page-guards";
import type { SessionUser } from "@/lib/auth/permissions";
import { consoleOrigin, safeReturnPath } from "@/lib/http/return-to";
import { rawParams, withParams, type RawParams } from "@/lib/list/params";
import { parseWith } from "@/lib/list/parse";
import { savedAs, viewsPage, type MenuView } from "@/lib/views/menu";
import { VIEW_LISTS, VIEW_RESOURCES, type ViewResource } from "@/lib/views/resources";
import { viewsPageSchema } from "@/lib/views/schema";
import { problemWords } from "@/lib/i18n/problem";
import { problemText, viewFields } from "./toolbars";
import { ViewActions, ViewTitle } from "./view-actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("views");
  return { title: t("page.metaTitle") };
}

const TITLES = { subscribers: "page.subscribersTitle", branches: "page.branchesTitle" } as const satisfies Record<ViewResource, string>;

/**
 * A list's saved views, to rename, share, point at the filters of the list the user came from,
 * make the default or delete; a page of its own so the list's menu stays a list of links. Paged
 * like every list: the menu shows only some shared views and links here for the rest.
 */
export default async function ViewsPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const [t, all, branches] = await Promise.all([getTranslations("views"), getTranslations(), getTranslations("branches")]);
  const resource: ViewResource = VIEW_RESOURCES.find((r) => r === params.resource) ?? "subscribers";
  const path = VIEW_LISTS[resource].path;
  const back = safeReturnPath(typeof params.back === "string" ? params.back : path, consoleOrigin(), path);
  const user = await requirePageUser(`/views?resource=${resource}&back=${encodeURIComponent(back)}`);
  // The list the user came from: its filters and columns are what "Update" saves.
  const backUrl = new URL(back, "http://localhost");
  const from = backUrl.pathname === path ? rawParams(backUrl.searchParams) : {};
  const state = savedAs(user, resource, from);
  const parsed = parseWith(viewsPageSchema, params);
  // Only when the user came from the list: opened on its own, the page has no filters to offer.
  const update = state.query === null || typeof params.back !== "string" ? null : { query: state.query, columns: state.columns, href: `${path}${withParams(from, {})}` };

  // Rename, Copy link and the other buttons are client code: they read `views`.
  return (
    <ClientMessages namespaces={VIEWS_CLIENT_WORDS}>
      <div className="mx-auto max-w-3xl space-y-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">{t(TITLES[resource])}</h1>
          <a href={back} className={buttonClass.secondary}>
            {t("page.back")}
          </a>
        </div>
        <p className="text-sm text-slate-600">{t("page.intro")}</p>
        {update ? (
          <div className="space-y-1.5 text-sm text-slate-600">
            <p>{t("page.cameFrom", { every: update.query ? "no" : "yes", columns: update.columns ? "yes" : "no" })}</p>
            <QueryChips fields={viewFields(resource, all, branches)} query={update.query} label={t("page.cameFromChips")} />
          </div>
        ) : null}
        {parsed.ok ? (
          <ViewList user={user} resource={resource} page={parsed.value.page} params={params} update={update} />
        ) : (
          <InvalidQuery fields={parsed.problems} params={params} path="/views" />
        )}
      </div>
    </ClientMessages>
  );
}

type Update = { query: string; columns: string[] | null; href: string } | null;

/** One page of the list's views (the user's own and the shared ones, by name), with the pager. */
async function ViewList({ user, resource, page, params, update }: { user: SessionUser; resource: ViewResource; page: number; params: RawParams; update: Update }) {
  const [{ views, pagination }, t] = await Promise.all([viewsPage(user, resource, page), getTranslations("views")]);
  if (pagination.total === 0) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
        {t.rich("page.empty", { strong: (c) => <strong>{c}</strong> })}
      </p>
    );
  }
  if (views.length === 0) return <PastLastPage pagination={pagination} params={params} path="/views" />;
  return (
    <div className="space-y-4">
      <ResultSummary pagination={pagination} rows={views.length} noun="views" />
      <ul className="space-y-3" aria-label={t(TITLES[resource])}>
        {views.map((view) => (
          <ViewItem key={view.id} view={view} resource={resource} update={update} />
        ))}
      </ul>
      <Pager pagination={pagination} params={params} path="/views" />
    </div>
  );
}

async function ViewItem({ view, resource, update }: { view: MenuView; resource: ViewResource; update: Update }) {
  const [t, problems, all, branches] = await Promise.all([getTranslations("views"), getTranslations("problems"), getTranslations(), getTranslations("branches")]);
  const words = (text: string) => problemWords(problems as unknown as Parameters<typeof problemWords>[0], text);
  const fields = viewFields(resource, all, branches);
  return (
    <li className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm">
      <div className="flex flex-wrap items-center gap-2">
        <ViewTitle view={view} />
        {view.shared ? <Badge tone="blue">{t("page.shared")}</Badge> : <Badge>{t("page.private")}</Badge>}
        {view.isDefault ? <Badge tone="green">{t("page.yourDefault")}</Badge> : null}
        {view.problem ? <Badge tone="red">{t("page.broken")}</Badge> : null}
        <span className="text-xs text-slate-500">{view.own ? t("page.byYou") : t.rich("menu.by", { owner: view.owner, bdi: (c) => <bdi>{c}</bdi> })}</span>
      </div>
      {view.query ? <QueryChips fields={fields} query={view.query} label={t("chipsOf", { name: view.name })} /> : <p className="text-xs text-slate-600">{t("page.everyRow")}</p>}
      {view.problem ? <p className="rounded-md bg-red-50 px-3 py-2 text-red-800">{t("page.noLongerOpens", { problem: problemText(view, words, fields) })}</p> : null}
      <ViewActions view={view} resource={resource} update={update} />
    </li>
  );
}
