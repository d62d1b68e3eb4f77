import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { JOB_STATE } from "../../import/status-badge";
import { requirePageUser } from "@/lib/auth/page-guards";
import { AppError } from "@/lib/errors";
import { isJobId } from "@/lib/jobs/ids";
import { formatCount, formatDateTime } from "@/lib/format";
import { withParams } from "@/lib/list/params";
import { bulkStatus, canUndo, type BulkStatus } from "@/lib/subscribers/bulk";
import { describeChange, type BulkChange } from "@/lib/subscribers/bulk-schema";
import { RefreshWhile } from "./refresh-while";
import { UndoButton } from "./undo-button";
import { FormAlert } from "@/components/ui/form-alert";

export const metadata: Metadata = { title: "Bulk change" };

const rows = (n: number) => `${formatCount(n)} subscriber${n === 1 ? "" : "s"}`;

/** What an undo of `change` puts back, for its confirmation. */
function undoes(change: BulkChange, changed: number): string {
  if ("delete" in change) return `It restores the ${rows(changed)} it moved to the trash that are still there.`;
  const what = "subscription_status" in change ? "status" : "mandatory flag";
  return `It puts back the ${what} of the ${rows(changed)} it changed, as it was before.`;
}

/** A bulk change: its progress (refreshed while it runs), its counts and its undo; to its author or an administrator. */
export default async function BulkChangeProgressPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requirePageUser(`/subscribers/bulk/${encodeURIComponent(id)}`);
  let bulk: BulkStatus;
  try {
    if (!isJobId(id)) notFound();
    bulk = await bulkStatus(user, id);
  } catch (error) {
    if (AppError.is(error) && error.status === 404) notFound();
    throw error;
  }
  const running = bulk.status === "in_queue" || bulk.status === "running" || bulk.undo_status === "in_queue" || bulk.undo_status === "running";
  const percent = bulk.total_rows ? Math.min(100, Math.floor((bulk.processed_rows / bulk.total_rows) * 100)) : 100;
  const back = `/subscribers${"filters" in bulk.target ? withParams(bulk.target.filters, {}) : ""}`;
  const state = JOB_STATE[bulk.status];
  const finished = bulk.status === "completed" || bulk.status === "failed";
  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight">{bulk.undo_of ? "Undo of a bulk change" : "Bulk change"}</h1>
      <section className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" aria-live="polite">
        <p className="flex items-center gap-2 text-sm">
          <Badge tone={state.tone}>{state.label}</Badge>
          <span>
            {bulk.undo_of ? `Putting back: ${describeChange(bulk.change)}, for ${rows(bulk.total_rows)}` : `${formatCount(bulk.total_rows)} subscribers: ${describeChange(bulk.change)}`}
          </span>
        </p>
        <div role="progressbar" aria-label="Bulk change progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 rounded-full bg-slate-200">
          <div className="h-2 rounded-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
        </div>
        <p className="text-sm text-slate-600">
          {formatCount(bulk.processed_rows)} done ({percent}%). Started {formatDateTime(bulk.created_at)}
          {bulk.completed_at ? `, finished ${formatDateTime(bulk.completed_at)}` : ""}.
        </p>
        {finished ? (
          <p className="text-sm text-slate-600">
            {bulk.undo_of ? `${rows(bulk.changed_rows)} put back` : `${rows(bulk.changed_rows)} ${"delete" in bulk.change ? "moved to the trash" : "changed"}`}
            {bulk.undo_of ? `; ${rows(bulk.skipped_rows)} left as they are (changed since).` : "."}
          </p>
        ) : null}
        <FormAlert message={bulk.error} />
        {bulk.undo_of ? (
          <p className="text-sm">
            <Link href={`/subscribers/bulk/${bulk.undo_of}`} className="text-brand-700 hover:underline">
              The change it undoes
            </Link>
          </p>
        ) : null}
        {bulk.undone_by && bulk.undone_at ? (
          <p className="text-sm text-slate-700">
            Undone by <bdi>{bulk.undone_by.name}</bdi> on <time dateTime={bulk.undone_at.toISOString()}>{formatDateTime(bulk.undone_at)}</time>.{" "}
            <Link href={`/subscribers/bulk/${bulk.undo_id}`} className="text-brand-700 underline hover:no-underline">
              See the undo
            </Link>
          </p>
        ) : bulk.undo_id ? (
          <p className="text-sm text-slate-700">
            Being undone.{" "}
            <Link href={`/subscribers/bulk/${bulk.undo_id}`} className="text-brand-700 underline hover:no-underline">
              See the undo
            </Link>
          </p>
        ) : null}
        {canUndo(user, bulk) ? <UndoButton id={bulk.id} what={undoes(bulk.change, bulk.changed_rows)} /> : null}
        {running ? <RefreshWhile seconds={2} /> : null}
      </section>
      <Link href={back} className="text-sm text-brand-700 hover:underline">
        ← Back to the list
      </Link>
    </div>
  );
}
