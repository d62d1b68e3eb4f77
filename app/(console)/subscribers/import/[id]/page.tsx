import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ListProblemNotice } from "@/components/list/list-states";
import { requirePageUser } from "@/lib/auth/page-guards";
import { AppError } from "@/lib/errors";
import { isJobId } from "@/lib/jobs/ids";
import { formatCount, formatDateTime } from "@/lib/format";
import type { ImportField } from "@/lib/imports/fields";
import { FIELD } from "@/lib/subscribers/fields";
import { importStatus, type ImportStatus } from "@/lib/imports/imports";
import { listOutcome, type ListOutcome } from "@/lib/list/outcome";
import { heavy } from "@/lib/load/user-limit";
import { RefreshWhile } from "../../bulk/[id]/refresh-while";
import { ImportBadge } from "../status-badge";
import { MappingForm } from "./mapping-form";
import { FormAlert } from "@/components/ui/form-alert";

export const metadata: Metadata = { title: "Import" };

/** One import of the user's: its preview and mapping before it starts, its progress and outcome after. */
export default async function ImportStatusPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requirePageUser(`/subscribers/import/${encodeURIComponent(id)}`);
  let outcome: ListOutcome<ImportStatus>;
  try {
    if (!isJobId(id)) notFound();
    // Within the user's limit of heavy requests, as the uploads and previews are (429: said in place of the import).
    outcome = await listOutcome(() => heavy(user.id, () => importStatus(user.id, id)));
  } catch (error) {
    if (AppError.is(error) && error.status === 404) notFound();
    throw error;
  }
  if (!outcome.ok) return <ListProblemNotice problem={outcome.problem} params={{}} path={`/subscribers/import/${id}`} />;
  const imp = outcome.value;
  const running = imp.status === "in_queue" || imp.status === "running";
  return (
    <div className="mx-auto max-w-5xl space-y-5">
      <div>
        <Link href="/subscribers/import" className="text-sm text-brand-700 hover:underline">
          ← Imports
        </Link>
        <h1 className="mt-1 flex flex-wrap items-center gap-2 text-2xl font-semibold tracking-tight">
          {imp.dry_run ? "Preview" : "Import"}: <span className="font-mono text-lg">{imp.file_name}</span> <ImportBadge status={imp.status} preview={imp.dry_run} />
        </h1>
      </div>
      {imp.dry_run ? <Preview imp={imp} /> : <Progress imp={imp} />}
      {running ? <RefreshWhile seconds={1} /> : null}
    </div>
  );
}

function Counts({ imp, preview }: { imp: ImportStatus; preview: boolean }) {
  const reasons = Object.entries(imp.rejected_by_reason).sort((a, b) => b[1] - a[1]);
  return (
    <div className="space-y-2">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {[
          ["Rows", imp.total_rows],
          [preview ? "Will be imported" : "Imported", imp.imported_rows],
          ["Marked duplicate", imp.duplicate_rows],
          ["Rejected", imp.rejected_rows],
        ].map(([label, value]) => (
          <div key={label} className="rounded-md border border-slate-200 bg-white px-3 py-2">
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums">{formatCount(value as number)}</dd>
          </div>
        ))}
      </dl>
      {reasons.length ? (
        <details className="text-sm" open={preview}>
          <summary className="cursor-pointer text-slate-700">Rejected, by reason</summary>
          <ul className="mt-1 list-disc ps-6 text-slate-700">
            {reasons.map(([reason, count]) => (
              <li key={reason}>
                <span className="tabular-nums">{formatCount(count)}</span> · {reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

function Preview({ imp }: { imp: ImportStatus }) {
  const mapping = imp.headers.map((h) => imp.mapping[h] ?? null) as (ImportField | null)[];
  const ready = imp.status === "completed" && imp.problems.length === 0;
  return (
    <>
      <FormAlert message={imp.status === "failed" ? imp.error : null} className="rounded-md bg-red-50 px-3 py-2" />
      {imp.problems.length ? (
        <div role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <p className="font-medium">Nothing can be imported until the columns are mapped:</p>
          <ul className="list-disc ps-6">
            {imp.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {imp.warnings.length ? (
        <div role="status" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-800">
          <ul className="list-disc ps-6">
            {imp.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {ready ? <Counts imp={imp} preview /> : null}
      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <MappingForm
          // Remounted when the server's mapping, worksheet or sheet changes (another worksheet has another header).
          key={JSON.stringify([imp.worksheet, imp.headers, mapping, imp.chosen_sheet_name])}
          id={imp.id}
          headers={imp.headers}
          mapping={mapping}
          worksheets={imp.worksheets}
          worksheet={imp.worksheet}
          sheetName={imp.chosen_sheet_name}
          defaultSheet={imp.sheet_name}
          canStart={ready && imp.imported_rows > 0}
        />
      </section>
      {imp.preview.length ? (
        <section className="space-y-2">
          <h2 className="text-lg font-semibold">First rows</h2>
          {/* Focusable, so that a keyboard scrolls it too when it is wider than the screen. */}
          <div role="region" aria-label="First rows" tabIndex={0} className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="min-w-full text-sm">
              <thead className="bg-slate-50 text-start text-slate-600">
                <tr>
                  <th className="px-2 py-2 font-medium">Row</th>
                  {imp.headers.map((h, i) => (
                    <th key={`${i}-${h}`} className="px-2 py-2 font-medium whitespace-nowrap">
                      {h}
                      <span className="block text-xs font-normal text-slate-500">{mapping[i] ? FIELD[mapping[i]].label : "ignored"}</span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {imp.preview.map((row) => (
                  <tr key={row.line}>
                    <td className="px-2 py-1 text-slate-500 tabular-nums">{row.line}</td>
                    {imp.headers.map((_, i) => {
                      const error = row.errors[i];
                      return (
                        <td key={i} className={`px-2 py-1 align-top ${error ? "bg-red-50 text-red-900" : ""}`} title={error}>
                          {row.cells[i] ?? ""}
                          {error ? <span className="block text-xs text-red-700">{error}</span> : null}
                        </td>
                      );
                    })}
                    {row.errors[-1] ? <td className="bg-red-50 px-2 py-1 text-xs text-red-700">{row.errors[-1]}</td> : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </>
  );
}

function Progress({ imp }: { imp: ImportStatus }) {
  const total = imp.total_rows;
  const percent = imp.status === "completed" ? 100 : total ? Math.min(99, Math.floor((imp.processed_rows / total) * 100)) : 0;
  return (
    <section className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" aria-live="polite">
      <div role="progressbar" aria-label="Import progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 rounded-full bg-slate-200">
        <div className="h-2 rounded-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-slate-600">
        {formatCount(imp.processed_rows)} of {total ? formatCount(total) : "?"} rows read ({percent}%). Started {formatDateTime(imp.created_at)}
        {imp.completed_at ? `, finished ${formatDateTime(imp.completed_at)}` : ""}.
      </p>
      <FormAlert message={imp.error} />
      {imp.status === "completed" ? (
        <>
          <Counts imp={imp} preview={false} />
          <div className="flex flex-wrap gap-4 text-sm">
            <Link href={`/subscribers?sheet=${encodeURIComponent(imp.sheet_name)}`} className="text-brand-700 hover:underline">
              See the subscribers of sheet “{imp.sheet_name}”
            </Link>
            {imp.rejected_file ? (
              <a href={imp.rejected_file} className="text-brand-700 hover:underline">
                Download rejected rows
              </a>
            ) : null}
          </div>
        </>
      ) : null}
    </section>
  );
}
