// Bulk data for benchmarks: a million subscribers from the same deterministic generator as the
// demo data, inserted set-based (INSERT … SELECT FROM unnest(arrays), 10,000 rows a statement),
// never one row at a time. Works on a PostgreSQL server (a database of its own that it creates,
// `console_bench` by default) and on PGlite (a folder of its own).
//
// It only ever fills databases it created itself: each one is marked with a comment
// (COMMENT ON DATABASE … IS 'console-bench:{…}'), and a database without that mark is refused.
// Its two users (bench-admin@bench.invalid, bench-staff@bench.invalid) get random passwords that
// are never shown; the benchmark sets a fresh random one each run (resetBenchPassword), so no
// known login ever exists, unlike the demo data's public passwords.
//
// Used by scripts (tsx) only: no "server-only" here, and no import of the app's query modules.
import crypto from "node:crypto";
import fs from "node:fs";
import { hashPassword } from "@/lib/auth/password";
import { openDatabase, type Database } from "@/lib/db/client";
import type { DatabaseTarget } from "@/lib/db/config";
import { openSql, sql as statement, type Queryable, type SqlConnection } from "@/lib/db/sql";
import { applyMigrations, migrationTargetOf } from "@/tools/migrate";
import { generateSubscribers } from "./generator";
import { seedBranchesAndSheets, syncCountries } from "./demo";

export const BENCH_USERS = [
  { email: "bench-admin@bench.invalid", name: "Bench Admin", role: "admin" as const },
  { email: "bench-staff@bench.invalid", name: "Bench Staff", role: "staff" as const },
];
export const BENCH_BRANCHES = 35;
/** A staff member limited to one branch (about 1/35 of the subscribers): the benchmark measures them beside staff. */
export const BENCH_SCOPED = { email: "bench-scoped@bench.invalid", name: "Bench Scoped", role: "staff" as const };
const MARK = "console-bench:";
const BATCH = 10_000;

export type BenchMark = { subscribers: number; complete: boolean; seed: number; loaded_at?: string; load_seconds?: number };

/** What the loader reports as it goes (the CLI prints it; tests may collect it). */
export type Progress = (event: { phase: string; done?: number; total?: number; message?: string }) => void;

/** A database of the loader's: its own small pool, or the PGlite it opened (lib/db/sql.ts). */
function sqlFor(target: DatabaseTarget, database?: Database): SqlConnection {
  if (target.kind === "postgres") return openSql({ url: target.url, max: 2, name: "bulk load" });
  if (!database?.pglite) throw new Error("An embedded target is opened first.");
  return openSql({ pglite: database.pglite });
}

/** Where migrations apply for an opened target (its PGlite, or its URL). */

// ---------------------------------------------------------------------------------------------
// Databases of our own
// ---------------------------------------------------------------------------------------------

/** `postgres://…/console_bench` for a server URL (any database of it). */
export function benchDatabaseUrl(serverUrl: string, name = "console_bench"): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function readMark(sql: Queryable): Promise<BenchMark | null | "foreign"> {
  const [row] = await sql.query<{ comment: string | null }>(
    `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = current_database()`,
  );
  const comment = row?.comment ?? null;
  if (!comment) return null;
  if (!comment.startsWith(MARK)) return "foreign";
  try {
    return JSON.parse(comment.slice(MARK.length)) as BenchMark;
  } catch {
    return "foreign";
  }
}

async function writeMark(sql: Queryable, mark: BenchMark) {
  const [{ name } = { name: "" }] = await sql.query<{ name: string }>(`SELECT current_database() AS name`);
  const text = (MARK + JSON.stringify(mark)).replace(/'/g, "''");
  await sql.query(`COMMENT ON DATABASE "${name.replace(/"/g, '""')}" IS '${text}'`);
}

/** Is this database one the loader created (whatever its state)? */
async function isOurs(sql: Queryable, empty: () => Promise<boolean>): Promise<boolean> {
  const mark = await readMark(sql);
  if (mark === "foreign") return false;
  if (mark) return true;
  return empty();
}

async function hasNoTables(sql: Queryable) {
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
  );
  return (row?.n ?? 0) === 0;
}

/**
 * Makes sure the server has the database `url` names, created by us: creates it when missing,
 * drops and recreates it when it is ours but not (or not completely) filled with `subscribers`,
 * refuses when it is someone else's. Returns true when it already holds the data.
 */
async function preparePostgres(url: string, subscribers: number, log: Progress): Promise<boolean> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Use a plain database name (a-z, 0-9, _), not "${name}".`);
  const admin = openSql({ url: benchDatabaseUrl(url, "postgres"), max: 1, name: "bulk load" });
  try {
    const exists = (await admin.query(statement`SELECT 1 FROM pg_database WHERE datname = ${name}`)).length > 0;
    if (exists) {
      const sql = openSql({ url, max: 1, name: "bulk load" });
      let mark: BenchMark | null | "foreign";
      let ours: boolean;
      try {
        mark = await readMark(sql);
        ours = await isOurs(sql, () => hasNoTables(sql));
      } finally {
        await sql.close();
      }
      if (!ours) {
        throw new Error(`The database "${name}" exists and was not created by the bulk loader: choose another name (--database).`);
      }
      if (mark && mark !== "foreign" && mark.complete && mark.subscribers === subscribers) return true;
      log({ phase: "database", message: `dropping ${name} (${mark && mark !== "foreign" ? `${mark.subscribers} subscribers${mark.complete ? "" : ", incomplete"}` : "empty"})` });
      await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
    }
    log({ phase: "database", message: `creating ${name}` });
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.close();
  }
  return false;
}

/** The same for a PGlite folder: missing or empty is fine, ours is reused or refilled. */
async function preparePGlite(dir: string, subscribers: number, log: Progress): Promise<boolean> {
  if (!fs.existsSync(dir) || fs.readdirSync(dir).length === 0) return false;
  const database = await openDatabase({ kind: "pglite", dir });
  let mark: BenchMark | null | "foreign";
  let ours: boolean;
  try {
    const sql = openSql({ pglite: database.pglite! });
    mark = await readMark(sql);
    ours = await isOurs(sql, () => hasNoTables(sql));
  } finally {
    await database.close();
  }
  if (!ours) throw new Error(`The folder ${dir} holds a database the bulk loader did not create: choose another folder.`);
  if (mark && mark !== "foreign" && mark.complete && mark.subscribers === subscribers) return true;
  log({ phase: "database", message: `emptying ${dir} (not complete or another size)` });
  fs.rmSync(dir, { recursive: true, force: true });
  return false;
}

// ---------------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------------

export type BulkOptions = {
  target: DatabaseTarget;
  subscribers: number;
  seed?: number;
  progress?: Progress;
};

export type BulkResult = { loaded: boolean; subscribers: number; seconds: number; phases: Record<string, number> };

/**
 * Fills a bench database with `subscribers` subscribers (and the demo's 35 branches, 5 sheets,
 * every country, two bench users), unless it already holds exactly that. Secondary indexes and
 * foreign keys of `subscribers` are dropped during the insert and rebuilt after (from their own
 * definitions, read from the catalog: the result is what the migrations made), then VACUUM
 * ANALYZE: fresh statistics and a visibility map, as autovacuum would leave a settled table.
 */
export async function bulkLoad(options: BulkOptions): Promise<BulkResult> {
  const log = options.progress ?? (() => {});
  const seed = options.seed ?? 20261122;
  const { target, subscribers } = options;
  const started = performance.now();
  const phases: Record<string, number> = {};
  let phaseStart = started;
  const phase = (name: string) => {
    const now = performance.now();
    phases[name] = (now - phaseStart) / 1000;
    phaseStart = now;
  };

  const ready =
    target.kind === "postgres"
      ? await preparePostgres(target.url, subscribers, log)
      : await preparePGlite(target.dir, subscribers, log);
  if (ready) {
    // Loaded before: bring its schema up to date (a migration added since applies here too).
    const database = await openDatabase(target);
    try {
      const applied = await applyMigrations(migrationTargetOf(database));
      if (applied.length) {
        log({ phase: "migrate", message: `applied ${applied.join(", ")}` });
        const sql = sqlFor(target, database);
        await sql.query("ANALYZE");
        await sql.close();
      }
    } finally {
      await database.close();
    }
    return { loaded: false, subscribers, seconds: (performance.now() - started) / 1000, phases };
  }

  const database = await openDatabase(target);
  const sql = sqlFor(target, database);
  try {
    log({ phase: "migrate", message: "applying migrations" });
    await applyMigrations(migrationTargetOf(database));
    await writeMark(sql, { subscribers, complete: false, seed });
    const ids = await referenceData(database);
    phase("setup");

    const dropped = await dropSecondary(sql);
    phase("drop indexes");
    await insertSubscribers(sql, { count: subscribers, seed, ids }, log);
    phase("insert");
    await restoreSecondary(sql, dropped, target.kind === "postgres" ? 2 : 1, log);
    phase("indexes");
    log({ phase: "vacuum", message: "VACUUM ANALYZE" });
    for (const table of ["subscribers", "branches", "countries", "sheets", "users"]) await sql.query(`VACUUM (ANALYZE) ${table}`);
    phase("vacuum analyze");

    const seconds = (performance.now() - started) / 1000;
    await writeMark(sql, {
      subscribers,
      complete: true,
      seed,
      loaded_at: new Date().toISOString(),
      load_seconds: Math.round(seconds),
    });
    return { loaded: true, subscribers, seconds, phases };
  } finally {
    await sql.close();
    await database.close();
  }
}

type ReferenceIds = { branchIds: number[]; sheetIds: number[]; countryIds: Map<string, number> };

async function referenceData(database: Database): Promise<ReferenceIds> {
  const prisma = database.prisma;
  await syncCountries(prisma);
  for (const user of BENCH_USERS) {
    // A random password nobody knows: the benchmark sets its own each run.
    const password_hash = await hashPassword(crypto.randomBytes(24).toString("base64url"));
    await prisma.user.upsert({ where: { email: user.email }, create: { ...user, password_hash }, update: {} });
  }
  const reference = await seedBranchesAndSheets(prisma, BENCH_BRANCHES);
  await ensureScopedBenchUser(database);
  return reference;
}

/** The scoped bench user, limited to the bench's first branch (made on a database loaded before they existed too). */
export async function ensureScopedBenchUser(database: Database): Promise<void> {
  const prisma = database.prisma;
  const [first] = await prisma.branch.findMany({ select: { id: true }, orderBy: { id: "asc" }, take: 1 });
  if (!first) throw new Error("The bench database has no branch to scope its user to.");
  const password_hash = await hashPassword(crypto.randomBytes(24).toString("base64url"));
  const scope = { branch_scoped: true, branches: { create: [{ branch_id: first.id }] } };
  const user = await prisma.user.upsert({ where: { email: BENCH_SCOPED.email }, create: { ...BENCH_SCOPED, password_hash }, update: {}, select: { id: true } });
  await prisma.userBranch.deleteMany({ where: { user_id: user.id } });
  await prisma.user.update({ where: { id: user.id }, data: scope });
}

type Dropped = { indexes: { name: string; def: string }[]; constraints: { name: string; def: string }[] };

/** Drops every index of `subscribers` but its primary key, and its foreign keys; returns their definitions. */
async function dropSecondary(sql: Queryable): Promise<Dropped> {
  const indexes = (
    await sql.query<{ name: string; def: string }>(
      `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
        WHERE x.indrelid = 'subscribers'::regclass AND NOT x.indisprimary
        ORDER BY i.relname`,
    )
  );
  const constraints = await sql.query<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE conrelid = 'subscribers'::regclass AND contype = 'f' ORDER BY conname`,
  );
  for (const c of constraints) await sql.query(`ALTER TABLE subscribers DROP CONSTRAINT "${c.name}"`);
  for (const i of indexes) await sql.query(`DROP INDEX "${i.name}"`);
  return { indexes, constraints };
}

/** Rebuilds them on `sessions` sessions at once, the slow trigram (GIN) indexes first. */
async function restoreSecondary(sql: SqlConnection, dropped: Dropped, sessions: number, log: Progress) {
  const queue = [...dropped.indexes].sort((a, b) => Number(/USING gin/i.test(b.def)) - Number(/USING gin/i.test(a.def)));
  const total = queue.length;
  let done = 0;
  log({ phase: "indexes", done, total });
  await sql.sessions(sessions, async (session) => {
    await session.query(`SET maintenance_work_mem = '256MB'`);
    for (let next = queue.shift(); next; next = queue.shift()) {
      await session.query(next.def);
      log({ phase: "indexes", done: ++done, total, message: next.name });
    }
  });
  for (const c of dropped.constraints) await sql.query(`ALTER TABLE subscribers ADD CONSTRAINT "${c.name}" ${c.def}`);
}

/** One batch's INSERT … SELECT FROM unnest(column arrays). */
const insertStatement = (b: ReturnType<typeof emptyBatch>) => statement`INSERT INTO subscribers (first_name, last_name, email, mobile, branch_id,
    country_id, sheet_id, travel_date, subscription_status, is_duplicate, duplicate_by_email, duplicate_by_mobile, is_mandatory, created_at)
  SELECT f, l, e, m, br, c, sh, t, st::"SubscriptionStatus", de OR dm, de, dm, man, cr
    FROM unnest(${b.first}::text[], ${b.last}::text[], ${b.email}::text[], ${b.mobile}::text[], ${b.branch}::int[], ${b.country}::int[],
      ${b.sheet}::int[], ${b.travel}::date[], ${b.status}::text[], ${b.byEmail}::bool[], ${b.byMobile}::bool[], ${b.mandatory}::bool[],
      ${b.created}::timestamptz[]) AS u(f, l, e, m, br, c, sh, t, st, de, dm, man, cr)`;
// (The status goes as text[]: PGlite cannot serialize an array of an enum it has no parser for.)

/** Column arrays of one batch: one INSERT … unnest statement per batch. */
function emptyBatch() {
  return {
    first: [] as string[],
    last: [] as string[],
    email: [] as string[],
    mobile: [] as string[],
    branch: [] as (number | null)[],
    country: [] as (number | null)[],
    sheet: [] as (number | null)[],
    travel: [] as (string | null)[],
    status: [] as string[],
    byEmail: [] as boolean[],
    byMobile: [] as boolean[],
    mandatory: [] as boolean[],
    created: [] as string[],
  };
}

async function insertSubscribers(sql: Queryable, o: { count: number; seed: number; ids: ReferenceIds }, log: Progress) {
  const { branchIds, sheetIds, countryIds } = o.ids;
  let batch = emptyBatch();
  let inFlight: Promise<unknown> = Promise.resolve();
  let done = 0;
  log({ phase: "insert", done, total: o.count });
  // Generating the next batch (here) overlaps with inserting the previous one (in the database).
  const flush = async () => {
    const b = batch;
    batch = emptyBatch();
    await inFlight;
    const n = b.first.length;
    inFlight = sql
      .query(insertStatement(b))
      .then(() => log({ phase: "insert", done: (done += n), total: o.count }));
  };
  for (const s of generateSubscribers({
    count: o.count,
    branches: branchIds.length,
    sheets: sheetIds.length,
    allCountryCodes: [...countryIds.keys()],
    seed: o.seed,
  })) {
    batch.first.push(s.first_name);
    batch.last.push(s.last_name);
    batch.email.push(s.email);
    batch.mobile.push(s.mobile);
    batch.branch.push(s.branch_index === null ? null : branchIds[s.branch_index]!);
    batch.country.push(s.country_code === null ? null : (countryIds.get(s.country_code) ?? null));
    batch.sheet.push(s.sheet_index === null ? null : sheetIds[s.sheet_index]!);
    batch.travel.push(s.travel_date);
    batch.status.push(s.subscription_status);
    batch.byEmail.push(s.duplicate_by_email);
    batch.byMobile.push(s.duplicate_by_mobile);
    batch.mandatory.push(s.is_mandatory);
    batch.created.push(s.created_at.toISOString());
    if (batch.first.length === BATCH) await flush();
  }
  if (batch.first.length) await flush();
  await inFlight;
}

// ---------------------------------------------------------------------------------------------
// The benchmark's login
// ---------------------------------------------------------------------------------------------

/**
 * Gives a bench user a fresh random password and returns it (kept in memory by the benchmark,
 * never written anywhere). Refuses on a database the loader did not create.
 */
export async function resetBenchPassword(database: Database, email: string = BENCH_USERS[1]!.email): Promise<string> {
  const sql = sqlFor(database.target, database);
  try {
    const mark = await readMark(sql);
    if (!mark || mark === "foreign") throw new Error("Not a bench database: refusing to set a password.");
  } finally {
    await sql.close();
  }
  const password = crypto.randomBytes(24).toString("base64url");
  await database.prisma.user.update({ where: { email }, data: { password_hash: await hashPassword(password) } });
  return password;
}


// ---------------------------------------------------------------------------------------------
// The trash: lists and totals must stay as fast with a million trashed rows (docs/decisions/0031-trash.md)
// ---------------------------------------------------------------------------------------------

const TRASH_BATCH = 200_000;

/**
 * Fills the trash with `count` trashed subscribers (copies of live rows under ids after every live
 * one, deleted by the bench admin over the last 30 days), unless it holds exactly that many already.
 */
export async function fillTrash(target: DatabaseTarget, count: number, log: Progress = () => {}): Promise<{ filled: boolean; seconds: number }> {
  const started = performance.now();
  const database = await openDatabase(target);
  const sql = sqlFor(target, database);
  try {
    const [have] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM subscriber_trash`);
    if (have?.n === count) return { filled: false, seconds: 0 };
    log({ phase: "trash", message: `filling the trash with ${count.toLocaleString("en-GB")} subscribers` });
    await sql.query(`TRUNCATE subscriber_trash`);
    const [range] = await sql.query<{ max: number; live: number }>(`SELECT coalesce(max(id), 0)::int AS max, count(*)::int AS live FROM subscribers`);
    if (!range?.live) throw new Error("The bench database has no subscribers to copy into the trash.");
    const [admin] = await sql.query<{ id: number }>(statement`SELECT id FROM users WHERE email = ${BENCH_USERS[0]!.email}`);
    for (let done = 0; done < count; ) {
      // The next live rows in id order (from the first again past the last), under ids after every live one.
      const offset = done % range.live;
      const n = Math.min(TRASH_BATCH, count - done, range.live - offset);
      await sql.query(statement`INSERT INTO subscriber_trash (id, first_name, last_name, email, mobile, branch_id, country_id, sheet_id,
          travel_date, subscription_status, is_duplicate, is_mandatory, created_at, updated_at, deleted_at, deleted_by)
        SELECT ${range.max + done}::int + row_number() OVER (ORDER BY s.id)::int, s.first_name, s.last_name, s.email, s.mobile, s.branch_id,
          s.country_id, s.sheet_id, s.travel_date, s.subscription_status, s.is_duplicate, s.is_mandatory, s.created_at, s.updated_at,
          now() - (s.id % 2592000) * interval '1 second', ${admin?.id ?? null}::int
          FROM (SELECT * FROM subscribers ORDER BY id LIMIT ${n} OFFSET ${offset}) s`);
      done += n;
      log({ phase: "trash", done, total: count });
    }
    // New subscribers never take a trashed id (a restore brings it back).
    await sql.query(`SELECT setval(pg_get_serial_sequence('subscribers', 'id'), (SELECT max(id) FROM subscriber_trash))`);
    await sql.query(`VACUUM (ANALYZE) subscriber_trash`);
    return { filled: true, seconds: (performance.now() - started) / 1000 };
  } finally {
    await sql.close();
    await database.close();
  }
}
