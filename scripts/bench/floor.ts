// The floor: the statements a request runs, sent straight to the database in the same order.
// Every request first reads the session's user (sessionUserSql); then the list's rows and count
// (subscriberListSql / branchListSql / duplicateGroupsSql of the filters parsed from the same query string; the
// duplicates page then reads its groups' members, left out here) go at
// once, and /subscribers also reads the export panel's status (exportStatusSql) beside them, as
// the page does. A pool of the app's size; values are converted as @prisma/adapter-pg converts
// them (dates as UTC text). Verified against PostgreSQL's statement log: these are all the
// statements a page or API request runs.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { PGlite } from "@electric-sql/pglite";
import { branchFiltersSchema } from "@/lib/branches/filters";
import { sessionUserSql } from "@/lib/auth/session";
import { branchScope, type BranchScope } from "@/lib/auth/scope";
import { branchListSql } from "@/lib/branches/queries";
import { exportStatusSql } from "@/lib/export/status";
import type { Statement as SqlStatement } from "@/lib/db/sql";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { subscriberListSql } from "@/lib/subscribers/queries";
import { duplicateFiltersSchema } from "@/lib/subscribers/duplicate-filters";
import { duplicateGroupsSql } from "@/lib/subscribers/duplicate-groups";
import type { Request } from "./load";
import type { Scenario, Target } from "./scenarios";

export type Statement = { text: string; values: unknown[] };

const statement = (q: SqlStatement): Statement => ({ text: q.text, values: q.values.map(asAdapterArg) });

/** `scope`: the bench user's (every branch unless given). */
export function scenarioSql(s: Scenario, scope: BranchScope = branchScope({ role: "admin", branch_ids: null })): { rows: Statement; count: Statement } {
  const params = Object.fromEntries(new URLSearchParams(s.query));
  const sql =
    s.resource === "subscribers"
      ? subscriberListSql(scope, subscriberFiltersSchema.parse(params))
      : s.resource === "duplicates"
        ? duplicateGroupsSql(scope, duplicateFiltersSchema.parse(params))
        : branchListSql(scope, branchFiltersSchema.parse(params));
  return { rows: statement(sql.rows), count: statement(sql.count) };
}

/** A request's statements: the session's user first, then the rest at once. */
export function requestSql(s: Scenario, target: Target, userId: number): { first: Statement; then: Statement[] } {
  const { rows, count } = scenarioSql(s);
  const page = target === "html" && s.resource === "subscribers" ? [statement(exportStatusSql(userId))] : [];
  // The duplicates review counts only past its last page: its rows carry the total.
  if (s.resource === "duplicates") return { first: statement(sessionUserSql(userId)), then: [rows] };
  return { first: statement(sessionUserSql(userId)), then: [rows, count, ...page] };
}

/** Whether the page runs other statements than the API (then it has a floor of its own). */
export const pageHasOwnFloor = (s: Scenario) => s.resource === "subscribers";

/** @prisma/adapter-pg's mapArg for the values our list queries use. */
function asAdapterArg(value: unknown): unknown {
  if (!(value instanceof Date)) return value;
  const pad = (n: number, z = 2) => String(n).padStart(z, "0");
  const ms = value.getUTCMilliseconds();
  return (
    `${pad(value.getUTCFullYear(), 4)}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())} ` +
    `${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}:${pad(value.getUTCSeconds())}` +
    (ms ? `.${String(ms).padStart(3, "0")}` : "")
  );
}

export type FloorDb = {
  /** A request of `target` for the scenario, as the signed-in user `userId`. */
  request(s: Scenario, target: Target, userId: number): Request;
  /** The scenario's total (the count statement's answer). */
  count(s: Scenario): Promise<number>;
  /** A statement's rows as objects (checks, not measurements). */
  query(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  explain(statement: Statement): Promise<string>;
  version(): Promise<string>;
  close(): Promise<void>;
};

type Run = (st: Statement) => Promise<{ rows: unknown[][] }>;

/** A scenario's requests and count, on a database that runs one statement with `run`. */
function requests(run: Run): Pick<FloorDb, "request" | "count"> {
  return {
    request(s, target, userId) {
      const sql = requestSql(s, target, userId);
      return async () => {
        await run(sql.first);
        await Promise.all(sql.then.map(run));
      };
    },
    count: async (s) => Number((await run(scenarioSql(s).count)).rows[0]![0]),
  };
}

/** A pg pool of the app's size (DATABASE_POOL_SIZE, 10 by default). */
export function postgresFloor(url: string, poolSize: number): FloorDb {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const run: Run = (st) => pool.query({ text: st.text, values: st.values, rowMode: "array" });
  return {
    ...requests(run),
    query: async (text, values) => (await pool.query(text, values?.map(asAdapterArg))).rows,
    async explain(st) {
      const r = await pool.query({ text: `EXPLAIN (ANALYZE, BUFFERS) ${st.text}`, values: st.values });
      return r.rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
    },
    async version() {
      return (await pool.query("SELECT version() AS v")).rows[0].v;
    },
    close: () => pool.end(),
  };
}

/** PGlite: one connection, the statements queue as they do in the app. */
export function pgliteFloor(pglite: PGlite): FloorDb {
  const run: Run = (st) => pglite.query<unknown[]>(st.text, st.values, { rowMode: "array" });
  return {
    ...requests(run),
    query: async (text, values) => (await pglite.query<Record<string, unknown>>(text, values?.map(asAdapterArg))).rows,
    async explain(st) {
      const r = await pglite.query<Record<string, string>>(`EXPLAIN (ANALYZE, BUFFERS) ${st.text}`, st.values);
      return r.rows.map((row) => row["QUERY PLAN"]).join("\n");
    },
    async version() {
      return (await pglite.query<{ v: string }>("SELECT version() AS v")).rows[0]!.v;
    },
    close: async () => {},
  };
}

/** EXPLAIN (ANALYZE, BUFFERS) of a scenario's two statements, written to `dir/<id>.txt`. */
export async function writeExplain(db: FloorDb, s: Scenario, dir: string, header: string) {
  const sql = scenarioSql(s);
  // Twice: the first warms the cache, the second is the plan a busy server runs.
  await db.explain(sql.rows);
  await db.explain(sql.count);
  const parts = [
    `${s.title} — ${s.resource}${s.query ? `?${s.query}` : ""}`,
    header,
    "",
    "── rows ──",
    sql.rows.text.replace(/\s+/g, " "),
    `values: ${JSON.stringify(sql.rows.values)}`,
    "",
    await db.explain(sql.rows),
    "",
    "── count ──",
    sql.count.text.replace(/\s+/g, " "),
    `values: ${JSON.stringify(sql.count.values)}`,
    "",
    await db.explain(sql.count),
    "",
  ];
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${s.id}.txt`), parts.join("\n"));
}
