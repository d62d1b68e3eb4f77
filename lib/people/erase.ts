import "server-only";
import type { Tx } from "@/lib/db/transaction";
import type { SessionUser } from "@/lib/auth/permissions";
import type { BranchScope } from "@/lib/auth/scope";
import { sql, type Queryable } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { withdrawExportsHolding } from "@/lib/export/purge";
import { eraseSubscribers, trashSubscribers } from "@/lib/trash/subscribers";
import { findPerson, type Person, type PersonKey } from "./find";
import { eraseFromImports, findInImports, withdrawImportRows } from "./imports";
import { cellNames, ERASED, erasedViewName, FILTER_ACTIONS, likePatterns, mentions, names, scrub, scrubAuditEvent, scrubQuery } from "./markers";

// Erasing a person: every record of theirs (live, in the trash, merged away) goes by the trash's
// own erasure (the same path as the trash's clean-up and retention), then every other place that
// copied their values is scrubbed, in one transaction (decision 0038); files follow it: the
// imports' files rewritten, the exports holding them withdrawn (decision 0041). Not undoable.

export type ErasureCounts = {
  erased_subscribers: number;
  history_entries: number;
  audit_entries_scrubbed: number;
  import_rows: number;
  exports_withdrawn: number;
};

type Json = Record<string, unknown> | unknown[] | null;

/** Rows that may name the person (a coarse ILIKE; every row holding filters, which a partial value escapes), for the exact test in code. */
async function candidates<T>(tx: Queryable, select: ReturnType<typeof sql>, where: ReturnType<typeof sql>): Promise<T[]> {
  return tx.query<T>(sql`${select} WHERE ${where}`);
}

/** Scrubs the values that name the person everywhere the console copied them; returns the audit entries changed. */
async function scrubCopies(tx: Tx, person: Person): Promise<number> {
  const m = person.markers;
  const like = likePatterns(m);
  if (like.length === 0) return 0;

  await tx.query(sql`DELETE FROM import_rows WHERE lower(email) = ANY(${m.strong}::text[]) OR mobile = ANY(${person.mobiles}::text[])`);

  // Merges of others whose "before" holds one of their values (a survivor that once took them).
  for (const r of await candidates<{ id: string; before: Json }>(tx, sql`SELECT id, before FROM subscriber_merges`, sql`before::text ILIKE ANY(${like}::text[])`)) {
    const before = scrub(r.before, m);
    if (before !== r.before) await tx.query(sql`UPDATE subscriber_merges SET before = ${JSON.stringify(before)}::jsonb WHERE id = ${r.id}`);
  }
  for (const r of await candidates<{ id: string; target: Json; change: Json }>(tx, sql`SELECT id, target, change FROM bulk_changes`, sql`true`)) {
    const target = scrub(r.target, m, true);
    const change = scrub(r.change, m, true);
    if (target !== r.target || change !== r.change) {
      await tx.query(sql`UPDATE bulk_changes SET target = ${JSON.stringify(target)}::jsonb, change = ${JSON.stringify(change)}::jsonb WHERE id = ${r.id}`);
    }
  }
  for (const r of await candidates<{ id: string; filters: Json }>(tx, sql`SELECT id, filters FROM subscriber_exports`, sql`filters <> '{}'::jsonb`)) {
    const filters = scrub(r.filters, m, true);
    if (filters !== r.filters) await tx.query(sql`UPDATE subscriber_exports SET filters = ${JSON.stringify(filters)}::jsonb WHERE id = ${r.id}`);
  }
  for (const r of await candidates<{ id: number; name: string; query: string }>(tx, sql`SELECT id, name, query FROM saved_views`, sql`true`)) {
    const query = scrubQuery(r.query, m);
    // A view's name is the owner's own words: one naming the person is renamed, uniquely.
    const name = mentions(r.name, m) ? erasedViewName(r.id) : r.name;
    if (query !== r.query || name !== r.name) await tx.query(sql`UPDATE saved_views SET query = ${query}, name = ${name} WHERE id = ${r.id}`);
  }
  for (const r of await candidates<{ id: string; preview: { cells: string[] }[]; error: string | null }>(
    tx, sql`SELECT id, preview, error FROM subscriber_imports`, sql`(preview::text || coalesce(error, '')) ILIKE ANY(${like}::text[])`)) {
    const preview = r.preview.filter((row) => !row.cells.some((c) => cellNames(c, m, person.mobiles)));
    const error = r.error !== null && names(r.error, m) ? ERASED : r.error;
    if (preview.length !== r.preview.length || error !== r.error) {
      await tx.query(sql`UPDATE subscriber_imports SET preview = ${JSON.stringify(preview)}::jsonb, error = ${error} WHERE id = ${r.id}`);
    }
  }

  // The audit keeps every event (who did what, when), without the person's values; their records' own
  // events were emptied by the trash's erasure.
  let scrubbed = 0;
  for (const r of await candidates<{ id: bigint; action: string; before: Json; after: Json }>(tx, sql`SELECT id, action, before, after FROM audit_events`,
    sql`(coalesce(before::text, '') || coalesce(after::text, '')) ILIKE ANY(${like}::text[]) OR action = ANY(${FILTER_ACTIONS}::text[])`)) {
    const before = scrubAuditEvent(r.action, r.before, m);
    const after = scrubAuditEvent(r.action, r.after, m);
    if (before !== r.before || after !== r.after) {
      scrubbed++;
      await tx.query(sql`UPDATE audit_events SET before = ${before === null ? null : JSON.stringify(before)}::jsonb,
        after = ${after === null ? null : JSON.stringify(after)}::jsonb WHERE id = ${r.id}`);
    }
  }
  return scrubbed;
}

/** Erases the records of `ids` (live ones through the trash), in the caller's transaction: the trash's own erasure path. */
export async function eraseRecords(tx: Tx, ids: readonly number[], actor: number | null): Promise<{ erased: number[]; history: number }> {
  if (ids.length === 0) return { erased: [], history: 0 };
  const [h] = await tx.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_events WHERE entity = 'subscriber' AND entity_id = ANY(${ids.map(String)}::text[])`);
  await trashSubscribers(tx, ids, { deletedBy: actor });
  const erased = await eraseSubscribers(tx, ids);
  // What held them by id: "not duplicates" pairs, merges (their undo is gone with them), bulk changes' undo values.
  await tx.query(sql`DELETE FROM subscriber_dismissals WHERE low_id = ANY(${erased}::int[]) OR high_id = ANY(${erased}::int[])`);
  await tx.query(sql`DELETE FROM subscriber_merges WHERE survivor_id = ANY(${erased}::int[]) OR merged_ids && ${erased}::int[]`);
  await tx.query(sql`DELETE FROM bulk_change_rows WHERE subscriber_id = ANY(${erased}::int[])`);
  return { erased, history: h?.n ?? 0 };
}

/**
 * Erases the person everywhere (admins: the caller's guard; `scope` is theirs, every branch).
 * 404 when the console holds nothing of them.
 */
export async function erasePerson(scope: BranchScope, key: PersonKey, actor: SessionUser): Promise<ErasureCounts> {
  const seen = await findPerson(scope, key);
  const findings = await findInImports(seen.markers, seen.mobiles);
  const result = await transaction(async (tx) => {
    const person = await findPerson(scope, key, tx, true);
    if (person.ids.length === 0 && findings.length === 0) throw new AppError(404, "not_found", problem("people.notFound"));
    const markers = { strong: [...new Set([...person.markers.strong, ...seen.markers.strong])], weak: [...new Set([...person.markers.weak, ...seen.markers.weak])] };
    const whole = { ...person, markers, mobiles: [...new Set([...person.mobiles, ...seen.mobiles])] };
    const { erased, history } = await eraseRecords(tx, person.ids, actor.id);
    const audit = await scrubCopies(tx, whole);
    await withdrawImportRows(tx, findings);
    const counts = {
      erased_subscribers: erased.length,
      history_entries: history,
      audit_entries_scrubbed: audit,
      import_rows: findings.reduce((n, f) => n + f.lines.length + f.rejected_lines.length, 0),
      exports_withdrawn: 0,
    };
    await tx.audit({ action: "person.erase", actor, entity: "person", after: { subscriber_ids: erased, ...counts } });
    return { erased, counts, whole };
  });
  await eraseFromImports(findings, result.whole.markers, result.whole.mobiles);
  const withdrawn = await withdrawExportsHolding(result.erased, new Date(), "erased");
  return { ...result.counts, exports_withdrawn: withdrawn };
}
