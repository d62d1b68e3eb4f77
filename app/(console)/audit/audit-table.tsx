import { getLocale, getTranslations } from "next-intl/server";
import { FieldChanges } from "@/components/field-changes";
import { ListTable } from "@/components/list/list-table";
import { PlainHeader, SortHeader } from "@/components/list/sort-header";
import { requestMessages } from "@/lib/i18n/request";
import { auditWords, describeAudit, type AuditWords } from "@/lib/audit/describe";
import type { AuditRow } from "@/lib/audit/queries";
import { config } from "@/lib/config";
import type { Formats } from "@/lib/i18n/format";
import { getFormats } from "@/lib/i18n/server";
import type { RawParams } from "@/lib/list/params";

const Dash = () => <span className="text-slate-300">—</span>;

/** The entry in words, its record a link where it still has a page, then what changed field by field. Typed values are isolated (<bdi>). */
function WhatHappened({ row, words }: { row: AuditRow; words: AuditWords }) {
  const { text, record, diff, details } = describeAudit(row, words);
  const [head, tail] = text.split("{record}");
  const name = record ? <bdi className="font-medium">{record.label}</bdi> : null;
  return (
    <>
      <p>
        {head}
        {record?.href ? (
          <a href={record.href} className="text-brand-700 underline-offset-2 hover:underline">
            {name}
          </a>
        ) : (
          name
        )}
        {tail}
      </p>
      {diff ? <FieldChanges {...diff} /> : null}
      {details.length ? (
        <ul className="mt-1 text-xs text-slate-600">
          {details.map(([k, v]) => (
            <li key={k}>
              {words.t("record.changes.field", { field: k })} <bdi className="break-all">{v}</bdi>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

export async function AuditTable({ rows, sort, params, path }: { rows: AuditRow[]; sort: { column: string; direction: "asc" | "desc" }; params: RawParams; path: string }) {
  const header = { sort, params, path };
  const [t, f, locale] = await Promise.all([getTranslations("audit"), getFormats(), getLocale()]);
  const words = auditWords(locale, await requestMessages());
  return (
    <ListTable
      caption={t("caption")}
      bodyClassName="align-top"
      header={
        <>
          <SortHeader column="at" label={t("column.when", { zone: config().CONSOLE_TIME_ZONE })} {...header} />
          <SortHeader column="action" label={t("column.what")} {...header} />
          <SortHeader column="actor_email" label={t("column.who")} {...header} />
          <PlainHeader label={t("column.from")} />
        </>
      }
    >
      {rows.map((row) => (
        <AuditRowView key={String(row.id)} row={row} words={words} f={f} />
      ))}
    </ListTable>
  );
}

function AuditRowView({ row, words, f }: { row: AuditRow; words: AuditWords; f: Formats }) {
  return (
    <tr>
      {/* On a phone the time wraps, so what happened is in sight beside it. */}
      <td className="px-3 py-2.5 font-mono text-xs text-slate-600 sm:whitespace-nowrap">
        <time dateTime={row.at.toISOString()}>{f.dateTime(row.at, { seconds: true })}</time>
      </td>
      <td className="min-w-[13rem] sm:min-w-[18rem] max-w-xl px-3 py-2.5" title={row.action}>
        <WhatHappened row={row} words={words} />
      </td>
      <td className="px-3 py-2.5">{row.actor_email != null ? <bdi>{row.actor_email}</bdi> : <Dash />}</td>
      <td className="whitespace-nowrap px-3 py-2.5 font-mono text-xs text-slate-500" title={row.user_agent ?? undefined} translate="no">
        {row.ip ? <bdi>{row.ip}</bdi> : <Dash />}
      </td>
    </tr>
  );
}
