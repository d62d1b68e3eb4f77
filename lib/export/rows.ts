import { Prisma } from "@/lib/generated/prisma/client";
import type { SubscriberFilterValues } from "@/lib/subscribers/filters";
import { subscriberWhere } from "@/lib/subscribers/where";
import type { Sql } from "./sql";

// The rows of the file, read in keyset batches (`s.id > last ORDER BY s.id LIMIT n`): never the
// whole table in memory, never OFFSET. The WHERE is the list's own (subscriberWhere), so the file
// holds exactly the rows the list shows for the same filters. Every column is formatted by
// PostgreSQL as text in the CSV's form (ISO dates, true/false), so nothing is parsed and
// re-formatted in JavaScript.

/** EXPORT_COLUMNS, as SQL over `subscribers s` and the joins below. */
const COLUMNS = Prisma.sql`s.id::text, s.first_name, s.last_name, b.name, c.name, s.email,
  s.mobile, to_char(s.travel_date, 'YYYY-MM-DD'), sh.name, s.subscription_status::text,
  s.is_duplicate::text, s.is_mandatory::text,
  to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const JOINS = Prisma.sql`LEFT JOIN branches b ON b.id = s.branch_id
  LEFT JOIN countries c ON c.id = s.country_id
  LEFT JOIN sheets sh ON sh.id = s.sheet_id`;

const isEmpty = (sql: Prisma.Sql) => sql.strings.join("").trim() === "";

/** The WHERE of the filters, and `s.id > after` when given. */
function whereAfter(filters: SubscriberFilterValues, after?: number): Prisma.Sql {
  const where = subscriberWhere(filters);
  if (after === undefined) return where;
  return isEmpty(where) ? Prisma.sql`WHERE s.id > ${after}` : Prisma.sql`${where} AND s.id > ${after}`;
}

/** Every matching row in id order, as one statement (what the benchmark COPYs). */
export function exportQuery(filters: SubscriberFilterValues): Prisma.Sql {
  return Prisma.sql`SELECT ${COLUMNS} FROM subscribers s ${JOINS} ${whereAfter(filters)} ORDER BY s.id`;
}

export function countQuery(filters: SubscriberFilterValues): Prisma.Sql {
  return Prisma.sql`SELECT count(*)::int AS total FROM subscribers s ${subscriberWhere(filters)}`;
}

export async function countRows(sql: Sql, filters: SubscriberFilterValues): Promise<number> {
  const q = countQuery(filters);
  const [row] = await sql.query<{ total: number }>(q.text, q.values);
  return row?.total ?? 0;
}

/**
 * Batches of rows (arrays in EXPORT_COLUMNS order), each read by its own short statement. The
 * next batch is requested as soon as the current one arrives, so the database reads it while
 * the caller writes the current one (at most two batches in memory).
 */
export async function* rowBatches(sql: Sql, filters: SubscriberFilterValues, batchSize: number) {
  const read = (after: number) => {
    // The batch's ids first (an index walk on the primary key, or the filters' indexes), then
    // the joins and formatting for those rows only.
    const q = Prisma.sql`SELECT ${COLUMNS} FROM (SELECT * FROM subscribers s ${whereAfter(filters, after)}
      ORDER BY s.id LIMIT ${batchSize}) s ${JOINS} ORDER BY s.id`;
    return sql.arrays(q.text, q.values);
  };
  let next: Promise<unknown[][]> | null = read(0);
  while (next) {
    const rows: unknown[][] = await next;
    if (rows.length === 0) return;
    next = rows.length < batchSize ? null : read(Number(rows[rows.length - 1]![0]));
    // A failed read is reported when it is awaited; never leave it unhandled meanwhile.
    next?.catch(() => {});
    yield rows;
  }
}
