import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { ListProblemNotice } from "@/components/list/list-states";
import { FormAlert } from "@/components/ui/form-alert";
import { requirePageUser } from "@/lib/auth/page-guards";
import { AppError } from "@/lib/errors";
import { isLocale } from "@/lib/i18n/locales";
import { getFormats } from "@/lib/i18n/server";
import { isJobId } from "@/lib/jobs/ids";
import { shownErased } from "@/lib/people/erased-words";
import type { ImportField } from "@/lib/imports/fields";
import { importAsKept, type ImportStatus } from "@/lib/imports/imports";
import { importWordsIn, readReason, type Words } from "@/lib/imports/words";
import { listOutcome, type ListOutcome } from "@/lib/list/outcome";
import { heavy } from "@/lib/load/user-limit";
import { RefreshWhile } from "../../bulk/[id]/refresh-while";
import { BackLink } from "../back-link";
import { getFieldLabels } from "../field-labels";
import { ImportBadge } from "../status-badge";
import { MappingForm } from "./mapping-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("import.page");
  return { title: t("title") };
}

/** What the import's words are put into here: its problem keys (lib/imports/words.ts), and the fields' labels. */
type Say = { words: Words; label: (field: string) => string };

/** One import of the user's: its preview and mapping before it starts, its progress and outcome after. */
export default async function ImportStatusPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requirePageUser(`/subscribers/import/${encodeURIComponent(id)}`);
  let outcome: ListOutcome<ImportStatus>;
  try {
    if (!isJobId(id)) notFound();
    // Within the user's limit of heavy requests, as the uploads and previews are (429: said in place of the import).
    outcome = await listOutcome(() => heavy(user.id, () => importAsKept(user.id, id)));
  } catch (error) {
    if (AppError.is(error) && error.status === 404) notFound();
    throw error;
  }
  if (!outcome.ok) return <ListProblemNotice problem={outcome.problem} params={{}} path={`/subscribers/import/${id}`} />;
  const imp = outcome.value;
  const t = await getTranslations("import.page");
  const locale = await getLocale();
  const [words, all] = [importWordsIn(isLocale(locale) ? locale : "en"), await getTranslations()];
  // A failure the erasure replaced (`[erased]`) reads in the reader's language too.
  const say: Say = { words: (text) => shownErased(words(text), all), label: await getFieldLabels() };
  const running = imp.status === "in_queue" || imp.status === "running";
  return (
    <div className="mx-auto max-w-5xl space-y-5">
      <div>
        <BackLink href="/subscribers/import">{t("backToImports")}</BackLink>
        <h1 className="mt-1 flex flex-wrap items-center gap-2 text-2xl font-semibold tracking-tight">
          <span>
            {t.rich("heading", {
              kind: imp.dry_run ? "preview" : "import",
              name: imp.file_name,
              file: (chunks) => <bdi className="font-mono text-lg">{chunks}</bdi>,
            })}
          </span>{" "}
          <ImportBadge status={imp.status} preview={imp.dry_run} />
        </h1>
      </div>
      {imp.dry_run ? <Preview imp={imp} say={say} /> : <Progress imp={imp} say={say} />}
      {running ? <RefreshWhile seconds={1} /> : null}
    </div>
  );
}

async function Counts({ imp, preview, say }: { imp: ImportStatus; preview: boolean; say: Say }) {
  const t = await getTranslations("import.counts");
  const f = await getFormats();
  // Reasons that read alike in this language count together.
  const said = new Map<string, number>();
  for (const [reason, count] of Object.entries(imp.rejected_by_reason)) {
    const { field, message } = readReason(reason);
    // The field and its reason in the language's punctuation (French puts a space before the colon).
    const text = field ? t("fieldReason", { field: say.label(field), reason: say.words(message) }) : say.words(message);
    said.set(text, (said.get(text) ?? 0) + count);
  }
  const reasons = [...said].sort((a, b) => b[1] - a[1]);
  return (
    <div className="space-y-2">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {(
          [
            [t("rows"), imp.total_rows],
            [preview ? t("willImport") : t("imported"), imp.imported_rows],
            [t("duplicates"), imp.duplicate_rows],
            [t("rejected"), imp.rejected_rows],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-md border border-slate-200 bg-white px-3 py-2">
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums">{f.count(value)}</dd>
          </div>
        ))}
      </dl>
      {reasons.length ? (
        <details className="text-sm" open={preview}>
          <summary className="cursor-pointer text-slate-700">{t("byReason")}</summary>
          <ul className="mt-1 list-disc ps-6 text-slate-700">
            {reasons.map(([reason, count]) => (
              <li key={reason}>
                <span className="tabular-nums">{f.count(count)}</span> · {reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

async function Preview({ imp, say }: { imp: ImportStatus; say: Say }) {
  const t = await getTranslations("import.page");
  const f = await getFormats();
  const mapping = imp.headers.map((h) => imp.mapping[h] ?? null) as (ImportField | null)[];
  const ready = imp.status === "completed" && imp.problems.length === 0;
  return (
    <>
      <FormAlert message={imp.status === "failed" && imp.error ? say.words(imp.error) : null} className="rounded-md bg-red-50 px-3 py-2" />
      {imp.problems.length ? (
        <div role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <p className="font-medium">{t("mappingNeeded")}</p>
          <ul className="list-disc ps-6">
            {imp.problems.map((p) => (
              <li key={p}>{say.words(p)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {imp.warnings.length ? (
        <div role="status" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-800">
          <ul className="list-disc ps-6">
            {imp.warnings.map((w) => (
              <li key={w}>{say.words(w)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {ready ? <Counts imp={imp} preview say={say} /> : null}
      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <ClientMessages namespaces={["import", "fields"]}>
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
        </ClientMessages>
      </section>
      {imp.preview.length ? (
        <section className="space-y-2">
          <h2 className="text-lg font-semibold">{t("firstRows")}</h2>
          {/* Focusable, so that a keyboard scrolls it too when it is wider than the screen. */}
          <div role="region" aria-label={t("firstRows")} tabIndex={0} className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="min-w-full text-sm">
              <thead className="bg-slate-50 text-start text-slate-600">
                <tr>
                  <th className="px-2 py-2 text-start font-medium">{t("row")}</th>
                  {imp.headers.map((h, i) => (
                    <th key={`${i}-${h}`} className="px-2 py-2 text-start font-medium whitespace-nowrap">
                      <bdi>{h}</bdi>
                      <span className="block text-xs font-normal text-slate-500">{mapping[i] ? say.label(mapping[i]) : t("ignored")}</span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {imp.preview.map((row) => (
                  <tr key={row.line}>
                    <td className="px-2 py-1 text-slate-500 tabular-nums">{f.count(row.line)}</td>
                    {imp.headers.map((_, i) => {
                      const kept = row.errors[i];
                      const error = kept === undefined ? undefined : say.words(kept);
                      return (
                        <td key={i} className={`px-2 py-1 align-top ${error ? "bg-red-50 text-red-900" : ""}`} title={error}>
                          <bdi>{row.cells[i] ?? ""}</bdi>
                          {error ? <span className="block text-xs text-red-700">{error}</span> : null}
                        </td>
                      );
                    })}
                    {row.errors[-1] ? <td className="bg-red-50 px-2 py-1 text-xs text-red-700">{say.words(row.errors[-1] ?? "")}</td> : null}
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

async function Progress({ imp, say }: { imp: ImportStatus; say: Say }) {
  const t = await getTranslations("import.page");
  const f = await getFormats();
  const total = imp.total_rows;
  const percent = imp.status === "completed" ? 100 : total ? Math.min(99, Math.floor((imp.processed_rows / total) * 100)) : 0;
  const values = {
    read: f.count(imp.processed_rows),
    total: total ? f.count(total) : t("unknownTotal"),
    count: total,
    percent: percent / 100,
    started: f.dateTime(imp.created_at),
  };
  return (
    <section className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" aria-live="polite">
      <div role="progressbar" aria-label={t("progress")} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 rounded-full bg-slate-200">
        <div className="h-2 rounded-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-slate-600">{imp.completed_at ? t("readFinished", { ...values, finished: f.dateTime(imp.completed_at) }) : t("read", values)}</p>
      <FormAlert message={imp.error === null ? null : say.words(imp.error)} />
      {imp.status === "completed" ? (
        <>
          <Counts imp={imp} preview={false} say={say} />
          <div className="flex flex-wrap gap-4 text-sm">
            <Link href={`/subscribers?sheet=${encodeURIComponent(imp.sheet_name)}`} className="text-brand-700 hover:underline">
              {t.rich("seeSheet", { sheet: imp.sheet_name, name: (chunks) => <bdi>{chunks}</bdi> })}
            </Link>
            {imp.rejected_file ? (
              <a href={imp.rejected_file} className="text-brand-700 hover:underline">
                {t("downloadRejected")}
              </a>
            ) : null}
          </div>
        </>
      ) : null}
    </section>
  );
}
