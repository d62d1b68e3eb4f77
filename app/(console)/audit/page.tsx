import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListToolbar } from "@/components/list/list-toolbar";
import { requestMessages } from "@/lib/i18n/request";
import { auditWords } from "@/lib/audit/describe";
import { auditFiltersSchema } from "@/lib/audit/filters";
import { listAuditEvents } from "@/lib/audit/queries";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { config } from "@/lib/config";
import { listOutcome } from "@/lib/list/outcome";
import { withParams, type RawParams } from "@/lib/list/params";
import { parseWith } from "@/lib/list/parse";
import { heavy } from "@/lib/load/user-limit";
import { AuditTable } from "./audit-table";
import { auditToolbar } from "./filter-fields";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("audit");
  return { title: t("title") };
}

const PATH = "/audit";

export default async function AuditPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const user = await requirePageAdmin(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(auditFiltersSchema, params);
  const [t, locale] = await Promise.all([getTranslations("audit"), getLocale()]);
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("intro", { zone: config().CONSOLE_TIME_ZONE })}</p>
      </div>
      <ListToolbar filters={auditToolbar(auditWords(locale, await requestMessages()))} params={params} path={PATH} />
      <ListBody parsed={parsed} params={params} path={PATH}>
        {(filters) => (
          <ListResults
            list={listOutcome(() => heavy(user.id, () => listAuditEvents(filters)))}
            params={params}
            path={PATH}
            noun="events"
            empty={<EmptyState title={t("emptyTitle")}>{t("emptyBody")}</EmptyState>}
          >
            {(rows) => <AuditTable rows={rows} sort={filters.sort} params={params} path={PATH} />}
          </ListResults>
        )}
      </ListBody>
    </div>
  );
}
