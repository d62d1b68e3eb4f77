import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { LIST_CLIENT_WORDS } from "@/lib/i18n/client-words";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListToolbar } from "@/components/list/list-toolbar";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { config } from "@/lib/config";
import type { Formats } from "@/lib/i18n/format";
import { getFormats } from "@/lib/i18n/server";
import { listOutcome } from "@/lib/list/outcome";
import type { Pagination } from "@/lib/list/pagination";
import { withParams, type RawParams } from "@/lib/list/params";
import { parseWith } from "@/lib/list/parse";
import { TRASH_FILTER_KEYS, TRASH_KINDS, trashPageSchema, type TrashFilters, type TrashKind } from "@/lib/trash/filters";
import { listTrashedBranches, listTrashedSubscribers } from "@/lib/trash/queries";
import { trashToolbar } from "./filter-fields";
import { TrashTable, type TrashRow } from "./trash-table";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("trash");
  return { title: t("title") };
}

const PATH = "/trash";

/** Deleted subscribers and branches, kept TRASH_RETENTION_DAYS for a restore (administrators). */
export default async function TrashPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  await requirePageAdmin(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(trashPageSchema, params);
  const kind: TrashKind = parsed.ok ? parsed.value.kind : "subscribers";
  const [t, f] = await Promise.all([getTranslations("trash"), getFormats()]);
  return (
    <div className="space-y-5">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="text-sm text-slate-600">{t("intro", { days: config().TRASH_RETENTION_DAYS })}</p>
      </div>
      <nav aria-label={t("kindNav")} className="flex gap-1 border-b border-slate-200 text-sm">
        {TRASH_KINDS.map((k) => (
          <Link
            key={k}
            href={`${PATH}${withParams({ ...params, kind: k }, { page: undefined })}`}
            aria-current={k === kind ? "page" : undefined}
            className={`-mb-px border-b-2 px-3 py-2 font-medium ${k === kind ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
          >
            {t(`kind.${k}`)}
          </Link>
        ))}
      </nav>
      <ListToolbar filters={trashToolbar({ name: t("filter.name"), namePlaceholder: t("filter.namePlaceholder"), deleted: t("filter.deleted") })} params={params} path={PATH} />
      <ListBody parsed={parsed} params={params} path={PATH} streamKey={kind}>
        {(filters) => (
          <ListResults
            list={listOutcome(() => trashRows(kind, filters, f))}
            params={params}
            path={PATH}
            noun={kind}
            empty={<NoTrash kind={kind} params={params} />}
          >
            {(rows) => (
              <ClientMessages namespaces={["trash.table", ...LIST_CLIENT_WORDS]}>
                <TrashTable kind={kind} rows={rows} />
              </ClientMessages>
            )}
          </ListResults>
        )}
      </ListBody>
    </div>
  );
}

async function trashRows(kind: TrashKind, filters: TrashFilters, f: Formats): Promise<{ data: TrashRow[]; pagination: Pagination }> {
  if (kind === "branches") {
    const { data, pagination } = await listTrashedBranches(filters);
    const rows: TrashRow[] = data.map((b) => ({
      id: b.id,
      name: b.name,
      detail: null,
      deleted_at: b.deleted_at.toISOString(),
      deleted_at_text: f.dateTime(b.deleted_at),
      deleted_by: b.deleted_by?.name ?? null,
      merged_into: null,
    }));
    return { data: rows, pagination };
  }
  const { data, pagination } = await listTrashedSubscribers(filters);
  const rows: TrashRow[] = data.map((s) => ({
    id: s.id,
    name: `${s.first_name} ${s.last_name}`,
    detail: s.email,
    deleted_at: s.deleted_at.toISOString(),
    deleted_at_text: f.dateTime(s.deleted_at),
    deleted_by: s.deleted_by?.name ?? null,
    merged_into: s.merged_into,
  }));
  return { data: rows, pagination };
}

async function NoTrash({ kind, params }: { kind: TrashKind; params: RawParams }) {
  const t = await getTranslations("trash.empty");
  return TRASH_FILTER_KEYS.some((key) => params[key]) ? (
    <EmptyState title={t("filteredTitle", { kind })}>{t("filteredBody")}</EmptyState>
  ) : (
    <EmptyState title={t("title", { kind })}>{t("body", { kind })}</EmptyState>
  );
}
