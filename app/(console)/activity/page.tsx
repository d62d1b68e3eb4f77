import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import type { ToolbarFilters } from "@/components/list/filter-bar";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ClientMessages } from "@/components/client-messages";
import { ListTable } from "@/components/list/list-table";
import { ListToolbar } from "@/components/list/list-toolbar";
import { PlainHeader } from "@/components/list/sort-header";
import { Badge } from "@/components/ui/badge";
import { listShownActivity, type ActivityWords } from "@/lib/activity/queries";
import { ACTIVITY_FILTER_KEYS, activityFiltersSchema, type Activity } from "@/lib/activity/schema";
import { requirePageUser } from "@/lib/auth/page-guards";
import { getFormats } from "@/lib/i18n/server";
import { listOutcome } from "@/lib/list/outcome";
import { withParams, type RawParams } from "@/lib/list/params";
import { parseWith } from "@/lib/list/parse";
import { ActivityUndo, type UndoWords } from "./activity-undo";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("activity");
  return { title: t("title") };
}

const PATH = "/activity";

/** Each status's tone and its catalogue key (activity.status.*). */
const STATUS: Record<Activity["status"], { tone: "blue" | "green" | "red" | "slate" | "amber"; key: string }> = {
  in_queue: { tone: "blue", key: "inQueue" },
  running: { tone: "blue", key: "running" },
  completed: { tone: "green", key: "completed" },
  failed: { tone: "red", key: "failed" },
  undoing: { tone: "blue", key: "undoing" },
  undone: { tone: "slate", key: "undone" },
  in_trash: { tone: "amber", key: "inTrash" },
};

/** The user's own changes, newest first, each with its Undo where it may still be undone; administrators pick whose. */
export default async function ActivityPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const user = await requirePageUser(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(activityFiltersSchema, params);
  const [t, f, all, format] = await Promise.all([getTranslations("activity"), getFormats(), getTranslations(), getFormatter()]);
  const words = all as unknown as ActivityWords;
  const undoWords = (merge: boolean, summary: string): UndoWords => ({
    label: merge ? t("undo.undo") : t("undo.restore"),
    ariaLabel: merge ? t("undo.undoAria", { summary }) : t("undo.restoreAria", { summary }),
    title: merge ? t("undo.mergeTitle") : t("undo.restoreTitle"),
    confirmLabel: merge ? t("undo.mergeConfirm") : t("undo.restoreConfirm"),
    done: t("undo.done"),
    failed: t("undo.failed"),
  });
  // Whose, by email: a list of every user would grow with them.
  const toolbar: ToolbarFilters | null =
    user.role === "admin" ? { fields: [{ kind: "text", name: "user", label: t("userFilter"), placeholder: t("userPlaceholder") }], keys: ACTIVITY_FILTER_KEYS } : null;
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("intro")}</p>
      </div>
      {toolbar ? <ListToolbar filters={toolbar} params={params} path={PATH} /> : null}
      <ListBody parsed={parsed} params={params} path={PATH}>
        {(filters) => (
          <ListResults
            list={listOutcome(() => listShownActivity(user, filters, words, (items) => format.list(items)))}
            params={params}
            path={PATH}
            noun="changes"
            empty={<EmptyState title={t("emptyTitle")}>{t("emptyBody")}</EmptyState>}
          >
            {(rows) => (
              <ListTable
                caption={t("caption")}
                header={
                  <>
                    <PlainHeader label={t("column.when")} className="hidden sm:table-cell" />
                    <PlainHeader label={t("column.what")} />
                    <PlainHeader label={t("column.status")} className="hidden sm:table-cell" />
                    <PlainHeader label={t("column.actions")} className="text-end" />
                  </>
                }
              >
                {rows.map((r) => {
                  const when = (
                    <time dateTime={r.at} title={f.dateTime(new Date(r.at))}>
                      {f.relative(new Date(r.at))}
                    </time>
                  );
                  const status = <Badge tone={STATUS[r.status].tone}>{t(`status.${STATUS[r.status].key}` as "status.running")}</Badge>;
                  return (
                    <tr key={`${r.kind}-${r.id}`} className="hover:bg-slate-50/60">
                      <td className="hidden whitespace-nowrap px-3 py-2.5 text-slate-600 sm:table-cell">{when}</td>
                      <td className="px-3 py-2.5">
                        {r.href ? (
                          <Link href={r.href} className="font-medium text-brand-700 hover:underline">
                            <bdi>{r.summary}</bdi>
                          </Link>
                        ) : (
                          <bdi>{r.summary}</bdi>
                        )}
                        {/* On a phone, when and how it went go under what, leaving room for the Undo. */}
                        <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600 sm:hidden">
                          {when} {status}
                        </span>
                      </td>
                      <td className="hidden px-3 py-2.5 sm:table-cell">{status}</td>
                      <td className="whitespace-nowrap px-3 py-1.5 text-end">{r.can_undo ? (
                          // A bulk change's Undo is its own page's button (subscribers/bulk/[id]/undo-button.tsx), with its words.
                          <ClientMessages namespaces={r.kind === "bulk_change" ? ["bulk.undo"] : []}>
                            <ActivityUndo entry={{ kind: r.kind, id: r.id, confirm: r.confirm }} words={undoWords(r.kind === "merge", r.summary)} />
                          </ClientMessages>
                        ) : null}</td>
                    </tr>
                  );
                })}
              </ListTable>
            )}
          </ListResults>
        )}
      </ListBody>
    </div>
  );
}
