// `npm run bench:bulk [-- N] [--database NAME] [--delete [--filters QUERY]]`: a bulk change of
// every subscriber of a database of N (default 1,000,000; its own database, `console_bulk` unless
// --database names another, loaded by the benchmark's bulk loader and kept for the next run) run
// as the job runs it (lib/subscribers/bulk.ts: batches in id order, each its own transaction),
// while another connection keeps creating subscribers (the creation's own statements: a
// transaction with the duplicate locks and an INSERT) and reading the list's first page. What to
// read: how long the longest batch held its rows, and how long the other connection ever waited.
// The change alternates between two statuses, so every run changes every row. Writes
// bench/results/bulk.md.
//
// --delete: an administrator's deletion of every subscriber matching --filters (the list's query
// string; default `subscription_status=active`, about half of them) instead, on a copy of the
// database made for the run (CREATE DATABASE … TEMPLATE) and dropped after it, so the loaded data
// stays. After the job it checks that every remaining subscriber's duplicate flag is what the
// creation rule decides (an earlier subscriber with the same email, case ignored, or mobile).
// Writes bench/results/bulk-delete.md.
import fs from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { toolEnv } from "@/tools/env";
import { benchDatabaseUrl, bulkLoad } from "@/tools/seed/bulk";
import { progressPrinter } from "./bench/progress";
import { DEFAULT_SERVER } from "./bulk-load";
import { runScript } from "./script-utils";
import { branchScope } from "@/lib/auth/scope";
/** These measure or check everything: an unscoped reader (lib/auth/scope.ts). */
const EVERY_BRANCH = branchScope({ role: "admin", branch_ids: null });

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
const ms = (x: number) => `${x < 10 ? x.toFixed(1) : x.toFixed(0)} ms`;

/** A fresh copy of a database (no one may be connected to it meanwhile), to destroy in a run. */
async function copyDatabase(url: string, copy: string): Promise<string> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new pg.Client({ connectionString: benchDatabaseUrl(url, "postgres") });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${copy}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${copy}" TEMPLATE "${name}"`);
  } finally {
    await admin.end();
  }
  return benchDatabaseUrl(url, copy);
}

async function dropDatabase(url: string) {
  const admin = new pg.Client({ connectionString: benchDatabaseUrl(url, "postgres") });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${decodeURIComponent(new URL(url).pathname.slice(1))}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

runScript(async () => {
  const { values: options, positionals } = parseArgs({
    allowPositionals: true,
    options: { database: { type: "string" }, delete: { type: "boolean", default: false }, filters: { type: "string" } },
  });
  const n = Number(positionals[0] ?? 1_000_000);
  if (!Number.isInteger(n) || n < 1) throw new Error("N must be a whole number, 1 or more");
  const deleting = options.delete;
  if (options.filters !== undefined && !deleting) throw new Error("--filters goes with --delete");
  const filters = Object.fromEntries(new URLSearchParams(options.filters ?? "subscription_status=active"));
  const loaded = benchDatabaseUrl(toolEnv(["BENCH_DATABASE_URL"]).BENCH_DATABASE_URL ?? DEFAULT_SERVER, options.database ?? "console_bulk");
  const load = await bulkLoad({ target: { kind: "postgres", url: loaded }, subscribers: n, progress: progressPrinter() });
  console.log(load.loaded ? `› Loaded in ${load.seconds.toFixed(0)} s.` : "› Data already loaded.");
  const url = deleting ? await copyDatabase(loaded, `${new URL(loaded).pathname.slice(1)}_delete`) : loaded;
  if (deleting) console.log(`› Deleting on a copy: ${url}`);
  try {
    await measure({ n, url, deleting, filters });
  } finally {
    if (deleting) await dropDatabase(url);
  }
});

async function measure({ n, url, deleting, filters }: { n: number; url: string; deleting: boolean; filters: Record<string, string> }) {
  process.env.DATABASE_URL = url;
  const { connection, closeConnection, sql } = await import("@/lib/db/sql");
  const { countTarget, runBulkChange } = await import("@/lib/subscribers/bulk");
  const { config } = await import("@/lib/config");
  const conn = await connection();
  const [user] = await conn.query<{ id: number }>(`SELECT id FROM users WHERE role = 'admin' ORDER BY id LIMIT 1`);
  const [state] = await conn.query<{ s: string }>(`SELECT subscription_status::text AS s FROM subscribers ORDER BY id LIMIT 1`);
  const to = state!.s === "expired" ? "active" : "expired";
  const change = deleting ? { delete: true } : { subscription_status: to };
  const target = { filters: deleting ? filters : {} };
  const total = deleting ? await countTarget(EVERY_BRANCH, target) : n;
  const id = `bench${Date.now().toString(36)}`.padEnd(22, "x").slice(0, 22);
  await conn.query(sql`INSERT INTO bulk_changes (id, user_id, target, change, total_rows)
    VALUES (${id}, ${user!.id}, ${JSON.stringify(target)}::jsonb, ${JSON.stringify(change)}::jsonb, ${total})`);

  // The other user: creations and first-page reads on a connection of their own, back to back.
  const probe = new pg.Client({ connectionString: url });
  await probe.connect();
  const inserts: number[] = [];
  const reads: number[] = [];
  let running = true;
  let k = 0;
  const probing = (async () => {
    while (running) {
      k++;
      let t = performance.now();
      await probe.query("BEGIN");
      await probe.query("SELECT pg_advisory_xact_lock(41001, hashtext($1))", [`probe${k}@bulk.test`]);
      await probe.query(
        `INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status) VALUES ('Probe', $1, $2, $3, 'pending')`,
        [`P${k}`, `probe${k}@bulk.test`, `+44790${String(k).padStart(7, "0")}`],
      );
      await probe.query("COMMIT");
      inserts.push(performance.now() - t);
      t = performance.now();
      await probe.query(`SELECT s.id FROM subscribers s ORDER BY s.created_at DESC, s.id DESC LIMIT 10`);
      reads.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();

  // Every committed transaction of the job: a batch that changes rows moves the count on; a
  // deletion's re-decisions of duplicate flags (after its last batch) leave it where it is.
  const batches: number[] = [];
  const redecisions: number[] = [];
  let last = performance.now();
  let done = 0;
  const started = last;
  const result = await runBulkChange(id, undefined, (processed) => {
    const now = performance.now();
    (processed > done ? batches : redecisions).push(now - last);
    done = processed;
    last = now;
  });
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await probing;
  await probe.query(`DELETE FROM subscribers WHERE email LIKE 'probe%@bulk.test'`);
  await probe.end();
  if (!("processed" in result)) throw new Error(result.skipped);
  const [counts] = await conn.query<{ kept: number; actual: number }>(
    `SELECT (SELECT coalesce(sum(total), 0)::int FROM subscriber_status_counts) AS kept, (SELECT count(*)::int FROM subscribers) AS actual`);
  // A deletion: every remaining subscriber's flag is the creation rule's (the whole table, once).
  const [flags] = deleting
    ? await conn.query<{ wrong: number; flagged: number }>(`SELECT count(*) FILTER (WHERE is_duplicate <> rule)::int AS wrong, count(*) FILTER (WHERE is_duplicate)::int AS flagged
        FROM (SELECT t.is_duplicate, (EXISTS (SELECT 1 FROM subscribers e WHERE lower(e.email) = lower(t.email) AND e.id < t.id)
                                   OR EXISTS (SELECT 1 FROM subscribers e WHERE e.mobile = t.mobile AND e.id < t.id)) AS rule FROM subscribers t) x`)
    : [];
  await closeConnection();
  const { db } = await import("@/lib/db/client");
  await (await db()).close();

  const what = deleting
    ? `deleted by an administrator's job (filters \`${new URLSearchParams(filters).toString() || "none"}\`: ${total.toLocaleString("en-GB")} of them)`
    : `status set to \`${to}\``;
  const table = [
    `### Bulk ${deleting ? "deletion" : "change of every subscriber"} (\`npm run bench:bulk${deleting ? " -- --delete" : ""}\`)`,
    "",
    `${n.toLocaleString("en-GB")} subscribers, ${what} by the job's own code, batches of ${config().BULK_BATCH_SIZE.toLocaleString("en-GB")}; ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPU(s), Node ${process.version}.`,
    "",
    "| measure | value |",
    "|---|--:|",
    `| rows ${deleting ? "deleted" : "changed"} | ${result.processed.toLocaleString("en-GB")} |`,
    `| total time | ${seconds.toFixed(1)} s (${Math.round(result.processed / seconds).toLocaleString("en-GB")} rows/s) |`,
    `| batches | ${batches.length} |`,
    `| batch (one transaction) p50 / p95 / max | ${ms(quantile(batches, 0.5))} / ${ms(quantile(batches, 0.95))} / ${ms(Math.max(...batches))} |`,
    ...(deleting
      ? [
          `| then, deciding duplicate flags again: transactions | ${redecisions.length} |`,
          `| its transaction p50 / p95 / max | ${redecisions.length ? `${ms(quantile(redecisions, 0.5))} / ${ms(quantile(redecisions, 0.95))} / ${ms(Math.max(...redecisions))}` : "–"} |`,
          `| **longest transaction of the job** | **${ms(Math.max(...batches, ...redecisions))}** |`,
        ]
      : []),
    `| meanwhile, another connection's creation p50 / p95 / max (${inserts.length} of them) | ${ms(quantile(inserts, 0.5))} / ${ms(quantile(inserts, 0.95))} / ${ms(Math.max(...inserts))} |`,
    `| meanwhile, its first-page read p50 / max | ${ms(quantile(reads, 0.5))} / ${ms(Math.max(...reads))} |`,
    `| trigger-kept total after / actual rows | ${counts!.kept.toLocaleString("en-GB")} / ${counts!.actual.toLocaleString("en-GB")} |`,
    ...(flags ? [`| remaining subscribers whose duplicate flag is not the rule's (of ${flags.flagged.toLocaleString("en-GB")} flagged) | ${flags.wrong.toLocaleString("en-GB")} |`] : []),
  ].join("\n");
  console.log(`\n${table}`);
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync(`bench/results/${deleting ? "bulk-delete" : "bulk"}.md`, `${table}\n`);
  if (flags && flags.wrong > 0) throw new Error(`${flags.wrong} remaining subscribers have a duplicate flag the rule would not give them.`);
}
