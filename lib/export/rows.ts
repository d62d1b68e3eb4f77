import pg from "pg";
import type { SubscriberFilterValues } from "@/lib/subscribers/filters";
import { SUBSCRIBER_JOINS, subscriberConditions, subscriberFrom } from "@/lib/subscribers/where";
import { whereClause } from "@/lib/list/sql";
import { subscribersOf, type BranchScope } from "@/lib/auth/scope";
import { ROOT_COLLATION, type SortCollation } from "@/lib/list/collation";
import { subscriberOrderSql } from "@/lib/subscribers/queries";
import { CopyTextRows } from "./copy-text";
import type { ExportSort } from "./filters";
import { sql, type Queryable, type Reader, type Statement } from "@/lib/db/sql";

// The file's rows in keyset batches (never OFFSET, never the whole table), with the list's own
// WHERE so the file holds exactly what the list shows; formatted by PostgreSQL, streamed as COPY text.

/** EXPORT_COLUMNS, as SQL over `subscribers s` and the joins below. */
const COLUMNS = sql`s.id::text, s.first_name, s.last_name, b.name, c.name, s.email,
  s.mobile, to_char(s.travel_date, 'YYYY-MM-DD'), sh.name, s.subscription_status::text,
  s.is_duplicate::text, s.is_mandatory::text,
  to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;


/** Every matching row in id order, as one statement (what the benchmark COPYs). */
export function exportQuery(scope: BranchScope, filters: SubscriberFilterValues): Statement {
  return sql`SELECT ${COLUMNS} ${subscriberFrom(scope, filters, SUBSCRIBER_JOINS)} ORDER BY s.id`;
}

/** How many rows the file of these filters holds (in the reader's snapshot, when it has one). */
export async function countRows(on: Queryable, scope: BranchScope, filters: SubscriberFilterValues): Promise<number> {
  const [row] = await on.query<{ total: number }>(sql`SELECT count(*)::int AS total ${subscriberFrom(scope, filters)}`);
  return row?.total ?? 0;
}

/** At most `limit` rows after id `after`: their ids first, then the joins for those rows only. */
function batchQuery(scope: BranchScope, filters: SubscriberFilterValues, after: number | null, limit: number): Statement {
  const conditions = subscriberConditions(scope, filters);
  if (after !== null) conditions.push(sql`s.id > ${after}`);
  return sql`SELECT ${COLUMNS} FROM (SELECT * FROM ${subscribersOf(scope)} s ${whereClause(conditions)}
    ORDER BY s.id LIMIT ${limit}) s ${SUBSCRIBER_JOINS} ORDER BY s.id`;
}

/**
 * The statement with its values inlined, since COPY takes no parameters. Strings go through
 * escapeLiteral; arrays of integers (a scope of several branches) become array literals; anything
 * but integers, booleans and dates is refused.
 */
export const inlineValues = (q: Statement): string => q.text.replace(/\$(\d+)/g, (_, n: string) => literal(q.values[Number(n) - 1]));

function literal(value: unknown): string {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "string") return pg.escapeLiteral(value);
  if (value instanceof Date && !Number.isNaN(value.getTime())) return `${pg.escapeLiteral(value.toISOString())}::timestamptz`;
  if (Array.isArray(value) && value.every((v) => typeof v === "number" && Number.isSafeInteger(v))) return `'{${value.join(",")}}'`;
  throw new Error(`A ${typeof value} cannot be written into an export's statement.`);
}

/** A piece of the file: `rows` rows, as their values. */
type Batch = string[][];

/** Every row, batch by batch as COPY chunks complete them; the caller's pace paces the database. */
export function exportRows(
  reader: Reader,
  scope: BranchScope,
  filters: SubscriberFilterValues,
  batchSize: number,
  sort: ExportSort | null = null,
  collation: SortCollation = ROOT_COLLATION,
): AsyncGenerator<Batch> {
  return sort && !(sort.column === "id" && sort.direction === "asc") ? sortedRows(reader, scope, filters, sort, batchSize, collation) : idRows(reader, scope, filters, batchSize);
}

/**
 * In the list's order: the matching ids first, sorted once in the reader's snapshot (only ids are
 * held), then their rows batch by batch in that order; names in `collation` (docs/sorting-by-language.md).
 */
async function* sortedRows(reader: Reader, scope: BranchScope, filters: SubscriberFilterValues, sort: ExportSort, batchSize: number, collation: SortCollation): AsyncGenerator<Batch> {
  const ids: number[] = [];
  const order = subscriberOrderSql(sort.column, sort.direction === "desc", collation);
  for await (const batch of copyRows(reader, sql`SELECT s.id FROM ${subscribersOf(scope)} s ${whereClause(subscriberConditions(scope, filters))} ORDER BY ${order}`)) {
    for (const row of batch) ids.push(Number(row[0]));
  }
  for (let i = 0; i < ids.length; i += batchSize) {
    yield* copyRows(reader, sql`SELECT ${COLUMNS} FROM unnest(${ids.slice(i, i + batchSize)}::int[]) WITH ORDINALITY o(id, n)
      JOIN ${subscribersOf(scope)} s ON s.id = o.id ${SUBSCRIBER_JOINS} ORDER BY o.n`);
  }
}

async function* copyRows(reader: Reader, q: Statement): AsyncGenerator<Batch> {
  const rows = new CopyTextRows();
  for await (const chunk of reader.copyOut(inlineValues(q))) {
    const batch = rows.push(chunk);
    if (batch.length > 0) yield batch;
  }
  rows.end();
}

async function* idRows(reader: Reader, scope: BranchScope, filters: SubscriberFilterValues, batchSize: number): AsyncGenerator<Batch> {
  for (let after: number | null = null; ; ) {
    const rows = new CopyTextRows();
    let count = 0;
    for await (const chunk of reader.copyOut(inlineValues(batchQuery(scope, filters, after, batchSize)))) {
      const batch = rows.push(chunk);
      if (batch.length === 0) continue;
      count += batch.length;
      after = Number(batch[batch.length - 1]![0]);
      yield batch;
    }
    rows.end();
    if (count < batchSize) return;
  }
}
