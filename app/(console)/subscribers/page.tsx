import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { LIST_CLIENT_WORDS } from "@/lib/i18n/client-words";
import Link from "next/link";
import { redirect } from "next/navigation";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListToolbar } from "@/components/list/list-toolbar";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageUser } from "@/lib/auth/page-guards";
import { canCreateSubscribers, canManageBranches } from "@/lib/auth/permissions";
import { rawExportFilters } from "@/lib/export/filters";
import { getFormats } from "@/lib/i18n/server";
import { listOutcome } from "@/lib/list/outcome";
import { withParams, type RawParams } from "@/lib/list/params";
import { parseWith } from "@/lib/list/parse";
import { heavyUnless } from "@/lib/load/user-limit";
import { SUBSCRIBER_FIELDS, SUBSCRIBER_FILTER_KEYS, subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { isLightList, listSubscribers } from "@/lib/subscribers/queries";
import { backQuery, listAddress } from "@/lib/subscribers/back";
import { tableSettings } from "@/lib/subscribers/columns";
import { defaultViewHref, shownColumns, viewsState } from "@/lib/views/menu";
import { ViewsMenu } from "../views/views-menu";
import { BulkBar } from "./bulk-bar";
import { DuplicatesLink } from "./duplicates-link";
import { subscriberToolbar } from "./filter-fields";
import { ExportPanel } from "./export-panel";
import { SubscriberTable } from "./subscriber-table";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("subscribers"))("title") };
}

/** Branch names as a short line: the first `shown`, then how many more, in the reader's language. */
function branchList(t: Awaited<ReturnType<typeof getTranslations<"subscribers">>>, names: readonly string[], shown = 5): string {
  const first = names.slice(0, shown).join(t("listSeparator"));
  return names.length > shown ? t("namesAndMore", { names: first, more: names.length - shown }) : first;
}

const PATH = "/subscribers";
const BULK_FORM = "bulk-change";
const COLUMN_COUNT = SUBSCRIBER_FIELDS.length;

export default async function SubscribersPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const user = await requirePageUser(`${PATH}${withParams(params, {})}`);
  const defaultView = await defaultViewHref(user, "subscribers", params);
  if (defaultView) redirect(defaultView);
  const parsed = parseWith(subscriberFiltersSchema, params);
  // The export panel takes its count from this query rather than counting again.
  const scope = user.scope;
  const list = parsed.ok ? listOutcome(() => heavyUnless(isLightList(scope, parsed.value), user.id, () => listSubscribers(scope, parsed.value))) : null;
  const views = await viewsState(user, "subscribers", params);
  const shown = shownColumns(user, params);
  const settings = tableSettings(user.preferences);
  const chosen = typeof params.columns === "string" ? shown : undefined;
  const [t, all, f] = await Promise.all([getTranslations("subscribers"), getTranslations(), getFormats()]);
  const toolbar = subscriberToolbar(all);
  const words = { t: all, f };

  // The table's select-page box is client code: it reads `list` (the toolbar, views menu and export panel bring their own).
  return (
    <ClientMessages namespaces={LIST_CLIENT_WORDS}>
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <div className="flex flex-wrap gap-2">
          <DuplicatesLink scope={scope} back={backQuery(listAddress(params))} />
          {canCreateSubscribers(user) ? (
            <>
              <Link href="/subscribers/import" className={buttonClass.secondary}>
                {t("import")}
              </Link>
              <Link href="/subscribers/new" className={buttonClass.primary}>
                {t("new")}
              </Link>
            </>
          ) : null}
        </div>
      </div>
      {user.branch_names ? (
        // The header names them too; the list says that it is limited to them.
        <p className="text-sm text-slate-600" data-testid="list-scope">
          {user.branch_names.length ? (
            t.rich("scopeSome", { names: branchList(t, user.branch_names), bdi: (c) => <bdi>{c}</bdi> })
          ) : (
            t("scopeNone")
          )}
        </p>
      ) : null}
      <ListToolbar
        filters={toolbar}
        params={params}
        path={PATH}
        views={<ViewsMenu state={views} params={params} />}
        emptyQuery={views.hasDefault ? "view=all" : undefined}
      />
      <ListBody parsed={parsed} params={params} path={PATH}>
        {(filters) => (
          <ListResults
            list={list!}
            params={params}
            path={PATH}
            noun="subscribers"
            empty={<NoSubscribers filtered={SUBSCRIBER_FILTER_KEYS.some((key) => params[key])} />}
            beside={() => (
              <div className="ms-auto">
                {/* Back without the address's columns (a view's), so the columns just chosen show. */}
                <a href={`/subscribers/columns?back=${encodeURIComponent(`${PATH}${withParams(params, { columns: undefined })}`)}`} className={`${buttonClass.secondary} py-1.5`}>
                  {/* On a phone only "Columns": with the summary on one line (the phone shows cards, not columns). */}
                  {!chosen && !settings.hidden
                    ? t.rich("columnsFit", { wide: (c) => <span className="max-sm:hidden">{c}</span> })
                    : shown.length < COLUMN_COUNT
                      ? t("columnsOf", { shown: shown.length, total: COLUMN_COUNT })
                      : t("columns")}
                </a>
              </div>
            )}
          >
            {(rows, { total }) => (
              <>
                <SubscriberTable rows={rows} sort={filters.sort} params={params} path={PATH} settings={settings} shown={chosen} selectForm={BULK_FORM} words={words} />
                {/* Under the rows, held at the bottom of the window while they scroll: selecting moves no row. A new address starts a new selection. */}
                <BulkBar key={listAddress(params)} id={BULK_FORM} params={params} total={total} admin={canManageBranches(user)} />
              </>
            )}
          </ListResults>
        )}
      </ListBody>
      {/* Under the list: on a phone the first rows come before the export's description of its file. */}
      <ExportPanel
        user={user}
        toolbar={toolbar}
        filters={parsed.ok ? rawExportFilters(params) : null}
        sort={parsed.ok ? `${parsed.value.sort.direction === "desc" ? "-" : ""}${parsed.value.sort.column}` : "-created_at"}
        view={views.current?.name ?? null}
        matching={list?.then((l) => (l.ok ? l.value.pagination.total : (l.problem.total ?? "unknown"))) ?? null}
      />
    </div>
    </ClientMessages>
  );
}

async function NoSubscribers({ filtered }: { filtered: boolean }) {
  const t = await getTranslations("subscribers");
  return filtered ? (
    <EmptyState title={t("emptyFilteredTitle")}>{t("emptyFilteredBody")}</EmptyState>
  ) : (
    <EmptyState title={t("emptyTitle")} action={<Link href="/subscribers/new" className={buttonClass.primary}>{t("new")}</Link>}>
      {t("emptyBody")}
    </EmptyState>
  );
}
