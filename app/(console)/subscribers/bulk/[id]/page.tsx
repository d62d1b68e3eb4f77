import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { requirePageUser } from "@/lib/auth/page-guards";
import { AppError } from "@/lib/errors";
import { isJobId } from "@/lib/jobs/ids";
import { formatDateTime } from "@/lib/format";
import { withParams } from "@/lib/list/params";
import { bulkStatus, type BulkStatus } from "@/lib/subscribers/bulk";
import { describeChange } from "@/lib/subscribers/bulk-schema";
import { RefreshWhile } from "./refresh-while";

export const metadata: Metadata = { title: "Bulk change" };

const STATE = {
  in_queue: { tone: "blue", label: "Waiting" },
  running: { tone: "blue", label: "Running" },
  completed: { tone: "green", label: "Completed" },
  failed: { tone: "red", label: "Failed" },
} as const;

/** A bulk change running as a job: its progress (refreshed while it runs), to its owner only. */
export default async function BulkChangeProgressPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requirePageUser(`/subscribers/bulk/${encodeURIComponent(id)}`);
  let bulk: BulkStatus;
  try {
    if (!isJobId(id)) notFound();
    bulk = await bulkStatus(user.id, id);
  } catch (error) {
    if (AppError.is(error) && error.status === 404) notFound();
    throw error;
  }
  const running = bulk.status === "in_queue" || bulk.status === "running";
  const percent = bulk.total_rows ? Math.min(100, Math.floor((bulk.processed_rows / bulk.total_rows) * 100)) : 100;
  const back = `/subscribers${"filters" in bulk.target ? withParams(bulk.target.filters, {}) : ""}`;
  const state = STATE[bulk.status];
  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight">Bulk change</h1>
      <section className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" aria-live="polite">
        <p className="flex items-center gap-2 text-sm">
          <Badge tone={state.tone}>{state.label}</Badge>
          <span>
            {bulk.total_rows.toLocaleString("en-GB")} subscribers: {describeChange(bulk.change)}
          </span>
        </p>
        <div role="progressbar" aria-label="Bulk change progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 rounded-full bg-slate-200">
          <div className="h-2 rounded-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
        </div>
        <p className="text-sm text-slate-600">
          {bulk.processed_rows.toLocaleString("en-GB")} done ({percent}%). Started {formatDateTime(bulk.created_at)}
          {bulk.completed_at ? `, finished ${formatDateTime(bulk.completed_at)}` : ""}.
        </p>
        {bulk.error ? (
          <p role="alert" className="text-sm text-red-700">
            {bulk.error}
          </p>
        ) : null}
        {running ? <RefreshWhile seconds={2} /> : null}
      </section>
      <Link href={back} className="text-sm text-brand-700 hover:underline">
        ← Back to the list
      </Link>
    </div>
  );
}
