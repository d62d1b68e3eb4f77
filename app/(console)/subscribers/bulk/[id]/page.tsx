import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { Badge } from "@/components/ui/badge";
import { JOB_STATE } from "../../import/status-badge";
import { requirePageUser } from "@/lib/auth/page-guards";
import { AppError } from "@/lib/errors";
import { getFormats, getProblemWords } from "@/lib/i18n/server";
import { isJobId } from "@/lib/jobs/ids";
import { withParams } from "@/lib/list/params";
import { bulkStatus, canUndo, type BulkStatus } from "@/lib/subscribers/bulk";
import { changeWords } from "../change-words";
import { RefreshWhile } from "./refresh-while";
import { UndoButton } from "./undo-button";
import { FormAlert } from "@/components/ui/form-alert";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("bulk.status");
  return { title: t("metaTitle") };
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
  const t = await getTranslations("bulk.status");
  const f = await getFormats();
  const describe = await changeWords();
  // A failure's error is a problem key (an older one English text, shown as it is).
  const words = await getProblemWords();
  const rows = (count: number) => ({ count, n: f.count(count) });
  const running = bulk.status === "in_queue" || bulk.status === "running" || bulk.undo_status === "in_queue" || bulk.undo_status === "running";
  const percent = bulk.total_rows ? Math.min(100, Math.floor((bulk.processed_rows / bulk.total_rows) * 100)) : 100;
  const back = `/subscribers${"filters" in bulk.target ? withParams(bulk.target.filters, {}) : ""}`;
  const finished = bulk.status === "completed" || bulk.status === "failed";
  const kind = "delete" in bulk.change ? "delete" : "subscription_status" in bulk.change ? "status" : "mandatory";
  // `done` a number: the message picks its plural form and writes it with the language's grouping.
  const progress = { done: bulk.processed_rows, percent: f.count(percent), started: f.dateTime(bulk.created_at) };
  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight">{bulk.undo_of ? t("titleUndo") : t("title")}</h1>
      <section className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" aria-live="polite">
        <p className="flex items-center gap-2 text-sm">
          <Badge tone={JOB_STATE[bulk.status].tone}>{t("state", { state: bulk.status })}</Badge>
          <span>{t(bulk.undo_of ? "summaryUndo" : "summary", { ...rows(bulk.total_rows), change: describe(bulk.change) })}</span>
        </p>
        <div role="progressbar" aria-label={t("progressLabel")} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 rounded-full bg-slate-200">
          <div className="h-2 rounded-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
        </div>
        <p className="text-sm text-slate-600">
          {bulk.completed_at ? t("progressFinished", { ...progress, finished: f.dateTime(bulk.completed_at) }) : t("progress", progress)}
        </p>
        {finished ? (
          <p className="text-sm text-slate-600">
            {bulk.undo_of
              ? t("putBack", { ...rows(bulk.changed_rows), skipped: bulk.skipped_rows, skippedN: f.count(bulk.skipped_rows) })
              : t("changed", { ...rows(bulk.changed_rows), kind: kind === "delete" ? "delete" : "change" })}
          </p>
        ) : null}
        <FormAlert message={bulk.error === null ? null : words(bulk.error)} />
        {bulk.undo_of ? (
          <p className="text-sm">
            <Link href={`/subscribers/bulk/${bulk.undo_of}`} className="text-brand-700 hover:underline">
              {t("undoes")}
            </Link>
          </p>
        ) : null}
        {bulk.undone_by && bulk.undone_at ? (
          <p className="text-sm text-slate-700">
            {t.rich("undoneBy", {
              name: bulk.undone_by.name,
              at: f.dateTime(bulk.undone_at),
              who: (chunks) => <bdi>{chunks}</bdi>,
              time: (chunks) => <time dateTime={bulk.undone_at!.toISOString()}>{chunks}</time>,
            })}{" "}
            <Link href={`/subscribers/bulk/${bulk.undo_id}`} className="text-brand-700 underline hover:no-underline">
              {t("seeUndo")}
            </Link>
          </p>
        ) : bulk.undo_id ? (
          <p className="text-sm text-slate-700">
            {t("beingUndone")}{" "}
            <Link href={`/subscribers/bulk/${bulk.undo_id}`} className="text-brand-700 underline hover:no-underline">
              {t("seeUndo")}
            </Link>
          </p>
        ) : null}
        {canUndo(user, bulk) ? (
          <ClientMessages namespaces={["bulk.undo"]}>
            <UndoButton id={bulk.id} what={t("undoWhat", { ...rows(bulk.changed_rows), kind })} />
          </ClientMessages>
        ) : null}
        {running ? <RefreshWhile seconds={2} /> : null}
      </section>
      <Link href={back} className="text-sm text-brand-700 hover:underline">
        {t("backToList")}
      </Link>
    </div>
  );
}
