import type { Metadata } from "next";
import { ClientMessages } from "@/components/client-messages";
import { BRANCH_TABLE_CLIENT_WORDS, LIST_CLIENT_WORDS } from "@/lib/i18n/client-words";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListToolbar } from "@/components/list/list-toolbar";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageUser } from "@/lib/auth/page-guards";
import { canManageBranches } from "@/lib/auth/permissions";
import { BRANCH_FILTER_KEYS, branchFiltersSchema } from "@/lib/branches/filters";
import { listBranches } from "@/lib/branches/queries";
import { listOutcome } from "@/lib/list/outcome";
import { withParams, type RawParams } from "@/lib/list/params";
import { parseWith } from "@/lib/list/parse";
import { defaultViewHref, viewsState } from "@/lib/views/menu";
import { ViewsMenu } from "../views/views-menu";
import { BranchTable } from "./branch-table";
import { branchToolbar } from "./filter-fields";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("branches"))("title") };
}

const PATH = "/branches";

export default async function BranchesPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const user = await requirePageUser(`${PATH}${withParams(params, {})}`);
  const admin = canManageBranches(user);
  const defaultView = await defaultViewHref(user, "branches", params);
  if (defaultView) redirect(defaultView);
  const parsed = parseWith(branchFiltersSchema, params);
  // The list's read beside the menu's, not after it: one round trip to the database fewer.
  const list = parsed.ok ? listOutcome(() => listBranches(user.scope, parsed.value)) : null;
  const [views, t] = await Promise.all([viewsState(user, "branches", params), getTranslations("branches")]);

  // The list's client parts read `list` (the toolbar and views menu bring their own).
  return (
    <ClientMessages namespaces={LIST_CLIENT_WORDS}>
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        {admin ? (
          <Link href="/branches/new" className={buttonClass.primary}>
            {t("new")}
          </Link>
        ) : null}
      </div>
      <ListToolbar
        filters={branchToolbar(t)}
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
            noun="branches"
            empty={<NoBranches filtered={BRANCH_FILTER_KEYS.some((key) => params[key])} admin={admin} />}
          >
            {(rows) => {
              const table = <BranchTable rows={rows} sort={filters.sort} params={params} path={PATH} admin={admin} />;
              // The rows' one client part is an admin's Delete: only its words travel, and only to admins.
              return admin ? <ClientMessages namespaces={BRANCH_TABLE_CLIENT_WORDS}>{table}</ClientMessages> : table;
            }}
          </ListResults>
        )}
      </ListBody>
    </div>
    </ClientMessages>
  );
}

async function NoBranches({ filtered, admin }: { filtered: boolean; admin: boolean }) {
  const t = await getTranslations("branches");
  return filtered ? (
    <EmptyState title={t("empty.filteredTitle")}>{t("empty.filteredBody")}</EmptyState>
  ) : (
    <EmptyState
      title={t("empty.noneTitle")}
      action={admin ? <Link href="/branches/new" className={buttonClass.primary}>{t("new")}</Link> : null}
    >
      {admin ? t("empty.adminBody") : t("empty.staffBody")}
    </EmptyState>
  );
}
