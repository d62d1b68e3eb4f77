import type { Metadata } from "next";
import Link from "next/link";
import type { ToolbarFilters } from "@/components/list/filter-bar";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListTable } from "@/components/list/list-table";
import { ListToolbar } from "@/components/list/list-toolbar";
import { PlainHeader } from "@/components/list/sort-header";
import { Badge } from "@/components/ui/badge";
import { listActivity } from "@/lib/activity/queries";
import { ACTIVITY_FILTER_KEYS, activityFiltersSchema, type Activity } from "@/lib/activity/schema";
import { requirePageUser } from "@/lib/auth/page-guards";
import { formatDateTime } from "@/lib/format";
import { listOutcome } from "@/lib/list/outcome";
import { parseWith, withParams, type RawParams } from "@/lib/list/params";
import { JOB_STATE } from "../subscribers/import/status-badge";
import { ActivityUndo } from "./activity-undo";
import { ClientMessages } from "@/components/client-messages";

export const metadata: Metadata = { title: "Activity" };

const PATH = "/activity";

const STATUS: Record<Activity["status"], { tone: "blue" | "green" | "red" | "slate" | "amber"; label: string }> = {
  ...JOB_STATE,
  undoing: { tone: "blue", label: "Being undone" },
  undone: { tone: "slate", label: "Undone" },
  in_trash: { tone: "amber", label: "In the trash" },
};

/** The user's own changes, newest first, each with its Undo where it may still be undone; administrators pick whose. */
export default async function ActivityPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const user = await requirePageUser(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(activityFiltersSchema, params);
  // Whose, by email: a list of every user would grow with them.
  const toolbar: ToolbarFilters | null =
    user.role === "admin" ? { fields: [{ kind: "text", name: "user", label: "User", placeholder: "Email address" }], keys: ACTIVITY_FILTER_KEYS } : null;
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Activity</h1>
        <p className="mt-1 text-sm text-slate-600">Bulk changes, imports, exports, merges and deletions, newest first, with their Undo while it is possible.</p>
      </div>
      {toolbar ? <ListToolbar filters={toolbar} params={params} path={PATH} /> : null}
      <ListBody parsed={parsed} params={params} path={PATH}>
        {(filters) => (
          <ListResults
            list={listOutcome(() => listActivity(user, filters))}
            params={params}
            path={PATH}
            noun={["change", "changes"]}
            empty={<EmptyState title="Nothing yet">Bulk changes, imports, exports, merges and deletions appear here.</EmptyState>}
          >
            {(rows) => (
              <ListTable
                caption="Activity"
                header={
                  <>
                    <PlainHeader label="When" className="hidden sm:table-cell" />
                    <PlainHeader label="What" />
                    <PlainHeader label="Status" className="hidden sm:table-cell" />
                    <PlainHeader label="Actions" className="text-end" />
                  </>
                }
              >
                {rows.map((r) => {
                  const when = <time dateTime={r.at}>{formatDateTime(new Date(r.at))}</time>;
                  const status = <Badge tone={STATUS[r.status].tone}>{STATUS[r.status].label}</Badge>;
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
                      <td className="whitespace-nowrap px-3 py-1.5 text-end">
                        {/* A bulk change's Undo is its page's button (subscribers/bulk/[id]/undo-button.tsx), with its words. */}
                        {r.can_undo ? (
                          <ClientMessages namespaces={["bulk.undo"]}>
                            <ActivityUndo entry={r} />
                          </ClientMessages>
                        ) : null}
                      </td>
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
