import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListToolbar } from "@/components/list/list-toolbar";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import type { Caller } from "@/lib/auth/principal";
import { listOutcome } from "@/lib/list/outcome";
import { withParams, type RawParams } from "@/lib/list/params";
import { parseWith } from "@/lib/list/parse";
import { userFiltersSchema, type UserFilters } from "@/lib/users/filters";
import { listUsers } from "@/lib/users/queries";
import { branchOptions } from "@/lib/subscribers/options";
import { UserTable } from "./user-table";
import { userToolbar } from "./filter-fields";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("users"))("title") };
}

const PATH = "/users";

export default async function UsersPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const admin = await requirePageAdmin(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(userFiltersSchema, params);
  const t = await getTranslations("users");
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <Link href="/users/new" className={buttonClass.primary}>
          {t("new")}
        </Link>
      </div>
      <ListToolbar filters={userToolbar(t)} params={params} path={PATH} />
      <ListBody parsed={parsed} params={params} path={PATH}>
        {(filters) => <Results filters={filters} params={params} me={admin} />}
      </ListBody>
    </div>
  );
}

async function Results({ filters, params, me }: { filters: UserFilters; params: RawParams; me: Caller }) {
  const list = listOutcome(() => listUsers(filters));
  // The admin's own scope (every branch): the choices of the "Branches…" dialog and the names in the table.
  const [branches, t] = await Promise.all([branchOptions(me.scope), getTranslations("users"), list]);
  return (
    <ListResults
      list={list}
      params={params}
      path={PATH}
      noun="users"
      empty={<EmptyState title={t("empty.title")}>{t("empty.body")}</EmptyState>}
    >
      {(rows) => (
        <ClientMessages namespaces={["users", "problems.users"]}>
          <UserTable rows={rows} sort={filters.sort} params={params} path={PATH} me={me} branches={branches} />
        </ClientMessages>
      )}
    </ListResults>
  );
}
