import "server-only";
import { PassThrough } from "node:stream";
import { buffer } from "node:stream/consumers";
import archiver from "archiver";
import { getTranslations } from "next-intl/server";
import type { SessionUser } from "@/lib/auth/permissions";
import type { BranchScope } from "@/lib/auth/scope";
import { query, sql } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { csvLines } from "@/lib/export/csv";
import { idRanges } from "@/lib/export/run";
import { findPerson, type Person, type PersonKey } from "./find";
import { findInImports, type ImportFinding } from "./imports";
import { eventNames, FILTER_ACTIONS, likePatterns, mentions, scrubQuery } from "./markers";

// Everything the console holds about a person, in one download (the right of access): their
// records with each one's history, the merges and bulk changes that touched them, the audit
// entries naming them, the imports whose files hold them and the exports whose files held them.
// JSON for machines, a CSV summary for people (in their language); audited without the data itself.

type Event = { id: string; at: Date; action: string; actor_email: string | null; entity: string | null; entity_id: string | null; before: unknown; after: unknown };

export type PersonData = {
  generated_at: string;
  records: (Person["records"][number] & { history: Event[] })[];
  merges: { id: string; survivor_id: number; merged_ids: number[]; created_at: Date; created_by: number | null; undone_at: Date | null }[];
  bulk_changes: { id: string; change: unknown; created_at: Date; user_email: string | null; subscriber_ids: number[] }[];
  audit_entries: Event[];
  imports: (Omit<ImportFinding, "user_id"> & { user_email: string | null })[];
  saved_views: { id: number; name: string; query: string; owner_email: string; shared: boolean }[];
  exports: { id: string; created_at: Date; completed_at: Date | null; user_email: string; format: string; status: string; total_rows: number }[];
};

/** What the console holds about the person (admins: `scope` is every branch). Empty records: nothing found. */
export async function personData(scope: BranchScope, key: PersonKey): Promise<PersonData> {
  const person = await findPerson(scope, key);
  const ids = person.ids;
  const textIds = ids.map(String);
  const [history, merges, bulk, exports, events, imports] = await Promise.all([
    query<Event>(sql`SELECT id::text, at, action, actor_email, entity, entity_id, before, after FROM audit_events
      WHERE entity = 'subscriber' AND entity_id = ANY(${textIds}::text[]) ORDER BY at, id`),
    query<PersonData["merges"][number]>(sql`SELECT id, survivor_id, merged_ids, created_at, created_by, undone_at FROM subscriber_merges
      WHERE survivor_id = ANY(${ids}::int[]) OR merged_ids && ${ids}::int[] ORDER BY created_at, id`),
    query<PersonData["bulk_changes"][number]>(sql`SELECT b.id, b.change, b.created_at, u.email AS user_email, array_agg(DISTINCT x.sid ORDER BY x.sid) AS subscriber_ids
      FROM (SELECT bulk_change_id, subscriber_id AS sid FROM bulk_change_rows WHERE subscriber_id = ANY(${ids}::int[])
            UNION SELECT bulk_change_id, id FROM subscriber_trash WHERE id = ANY(${ids}::int[]) AND bulk_change_id IS NOT NULL
            UNION SELECT b2.id, v::int FROM bulk_changes b2, jsonb_array_elements_text(CASE WHEN jsonb_typeof(b2.target->'ids') = 'array' THEN b2.target->'ids' ELSE '[]' END) v
              WHERE v::int = ANY(${ids}::int[])) x
      JOIN bulk_changes b ON b.id = x.bulk_change_id LEFT JOIN users u ON u.id = b.user_id
      GROUP BY b.id, b.change, b.created_at, u.email ORDER BY b.created_at, b.id`),
    ids.length
      ? query<PersonData["exports"][number]>(sql`SELECT e.id, e.created_at, e.completed_at, u.email AS user_email, e.format::text AS format, e.status::text AS status, e.total_rows
          FROM subscriber_exports e JOIN users u ON u.id = e.user_id
          WHERE e.subscriber_ids && ${idRanges(ids)}::int4multirange ORDER BY e.created_at, e.id`)
      : [],
    likePatterns(person.markers).length
      ? query<Event>(sql`SELECT id::text, at, action, actor_email, entity, entity_id, before, after FROM audit_events
          WHERE NOT (entity = 'subscriber' AND entity_id = ANY(${textIds}::text[]))
            AND ((coalesce(before::text, '') || coalesce(after::text, '')) ILIKE ANY(${likePatterns(person.markers)}::text[])
              OR action = ANY(${FILTER_ACTIONS}::text[])
              OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(after -> 'ids') = 'array' THEN after -> 'ids' ELSE '[]' END) x
                          WHERE x = ANY(${textIds}::text[]))) ORDER BY at, id`)
      : [],
    findInImports(person.markers, person.mobiles),
  ]);
  const views = (await query<PersonData["saved_views"][number]>(sql`SELECT v.id, v.name, v.query, u.email AS owner_email, v.shared FROM saved_views v JOIN users u ON u.id = v.owner_id ORDER BY v.id`))
    .filter((v) => mentions(v.name, person.markers) || scrubQuery(v.query, person.markers) !== v.query);
  const naming = events.filter((e) => eventNames(e.before, person.markers, e.action) || eventNames(e.after, person.markers, e.action) || idsOf(e.after).some((id) => ids.includes(id)));
  const userEmails = imports.length
    ? new Map((await query<{ id: number; email: string }>(sql`SELECT id, email FROM users WHERE id = ANY(${imports.map((i) => i.user_id)}::int[])`)).map((u) => [u.id, u.email]))
    : new Map<number, string>();
  return {
    generated_at: new Date().toISOString(),
    records: person.records.map((r) => ({ ...r, history: history.filter((h) => h.entity_id === String(r.id)) })),
    merges,
    bulk_changes: bulk,
    audit_entries: naming,
    imports: imports.map(({ user_id, ...i }) => ({ ...i, user_email: userEmails.get(user_id) ?? null })),
    saved_views: views,
    exports,
  };
}

const idsOf = (v: unknown): number[] => {
  const ids = (v as { ids?: unknown } | null)?.ids;
  return Array.isArray(ids) ? ids.filter((x): x is number => typeof x === "number") : [];
};

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : "");

/** The summary's words: the reader's language (record.archive in the catalogues). */
export type SummaryWords = Awaited<ReturnType<typeof getTranslations<"record.archive">>>;

/** One line per place the person is: what, where, when, which id; the header's names and the values stay as they are, the prose in the reader's language. */
export function summaryCsv(data: PersonData, t: SummaryWords): string {
  const system = t("theSystem");
  const removed = t("removedUser");
  const rows: string[][] = [["place", "id", "when", "detail"]];
  for (const r of data.records) {
    rows.push([t("place", { place: r.state }), String(r.id), iso(r.created_at), `${r.first_name} ${r.last_name} <${r.email}> ${r.mobile}`]);
    for (const h of r.history) rows.push([t("place", { place: "history" }), String(r.id), iso(h.at), t("by", { what: h.action, who: h.actor_email ?? system })]);
  }
  for (const m of data.merges) {
    const merged = { ids: m.merged_ids.join(" "), survivor: String(m.survivor_id) };
    rows.push([t("place", { place: "merge" }), m.id, iso(m.created_at), m.undone_at ? t("mergeUndone", merged) : t("merged", merged)]);
  }
  for (const b of data.bulk_changes) {
    rows.push([t("place", { place: "bulk" }), b.id, iso(b.created_at), t("bulk", { change: JSON.stringify(b.change), who: b.user_email ?? removed, ids: b.subscriber_ids.join(" ") })]);
  }
  for (const a of data.audit_entries) rows.push([t("place", { place: "audit" }), a.id, iso(a.at), t("by", { what: a.action, who: a.actor_email ?? system })]);
  for (const i of data.imports) {
    const found = { file: i.file_name, who: i.user_email ?? removed, lines: i.lines.join(", ") || t("noLines") };
    const detail = i.rejected_lines.length ? t("importRejected", { ...found, rejected: i.rejected_lines.join(", ") }) : t("import", found);
    rows.push([t("place", { place: i.dry_run ? "preview" : "import" }), i.id, iso(i.created_at), detail]);
  }
  for (const v of data.saved_views) rows.push([t("place", { place: "view" }), String(v.id), "", t("view", { name: v.name, owner: v.owner_email, query: v.query })]);
  for (const e of data.exports) {
    rows.push([t("place", { place: "export" }), e.id, iso(e.completed_at ?? e.created_at), t("export", { format: e.format.toUpperCase(), rows: e.total_rows, who: e.user_email, status: e.status })]);
  }
  return `\uFEFF${csvLines(rows)}`;
}

/** The archive (person.json and summary.csv), audited as `person.export` with counts and ids only; 404 when nothing is held. */
export async function personArchive(scope: BranchScope, key: PersonKey, actor: SessionUser): Promise<Buffer> {
  const data = await personData(scope, key);
  if (data.records.length === 0 && data.imports.length === 0) throw new AppError(404, "not_found", problem("people.notFound"));
  const zip = archiver("zip", { zlib: { level: 6 } });
  const out = new PassThrough();
  zip.pipe(out);
  const bytes = buffer(out);
  zip.append(JSON.stringify(data, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2), { name: "person.json" });
  zip.append(summaryCsv(data, await getTranslations("record.archive")), { name: "summary.csv" });
  await zip.finalize();
  const archive = await bytes;
  await transaction((tx) =>
    tx.audit({
      action: "person.export",
      actor,
      entity: "person",
      after: { subscriber_ids: data.records.map((r) => r.id), records: data.records.length, audit_entries: data.audit_entries.length, imports: data.imports.length, exports: data.exports.length },
    }),
  );
  return archive;
}
