// `npm run bench:bulk [-- N]`: a bulk change of every subscriber of a database of N (default
// 1,000,000; its own database `console_bulk`, loaded by the benchmark's bulk loader and kept for
// the next run) run as the job runs it (lib/subscribers/bulk.ts: batches of BULK_BATCH_SIZE in id
// order, each its own transaction), while another connection keeps creating subscribers (the
// creation's own statements: a transaction with the duplicate locks and an INSERT) and reading
// the list's first page. What to read: how long the longest batch held its rows, and how long the
// other connection ever waited. The change alternates between two statuses, so every run changes
// every row. Writes bench/results/bulk.md.
import fs from "node:fs";
import os from "node:os";
import pg from "pg";
import { benchDatabaseUrl, bulkLoad } from "@/tools/seed/bulk";
import { progressPrinter } from "./bench/progress";
import { DEFAULT_SERVER } from "./bulk-load";
import { runScript } from "./script-utils";

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
const ms = (x: number) => `${x < 10 ? x.toFixed(1) : x.toFixed(0)} ms`;

runScript(async () => {
  const n = Number(process.argv[2] ?? 1_000_000);
  const url = benchDatabaseUrl(process.env.BENCH_DATABASE_URL ?? DEFAULT_SERVER, "console_bulk");
  const load = await bulkLoad({ target: { kind: "postgres", url }, subscribers: n, progress: progressPrinter() });
  console.log(load.loaded ? `› Loaded in ${load.seconds.toFixed(0)} s.` : "› Data already loaded.");
  process.env.DATABASE_URL = url;
  const { connection, closeConnection, sql } = await import("@/lib/db/sql");
  const { runBulkChange } = await import("@/lib/subscribers/bulk");
  const { config } = await import("@/lib/config");
  const conn = await connection();
  const [user] = await conn.query<{ id: number }>(`SELECT id FROM users ORDER BY id LIMIT 1`);
  const [state] = await conn.query<{ s: string }>(`SELECT subscription_status::text AS s FROM subscribers ORDER BY id LIMIT 1`);
  const to = state!.s === "expired" ? "active" : "expired";
  const id = `bench${Date.now().toString(36)}`.padEnd(22, "x").slice(0, 22);
  await conn.query(sql`INSERT INTO bulk_changes (id, user_id, target, change, total_rows)
    VALUES (${id}, ${user!.id}, ${JSON.stringify({ filters: {} })}::jsonb, ${JSON.stringify({ subscription_status: to })}::jsonb, ${n})`);

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

  const batches: number[] = [];
  let last = performance.now();
  const started = last;
  const result = await runBulkChange(id, undefined, () => {
    const now = performance.now();
    batches.push(now - last);
    last = now;
  });
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await probing;
  await probe.query(`DELETE FROM subscribers WHERE email LIKE 'probe%@bulk.test'`);
  await probe.end();
  if (!("processed" in result)) throw new Error(result.skipped);
  const [counts] = await conn.query<{ kept: number; actual: number }>(
    `SELECT (SELECT sum(total)::int FROM subscriber_status_counts) AS kept, (SELECT count(*)::int FROM subscribers) AS actual`);
  await closeConnection();

  const table = [
    `### Bulk change of every subscriber (\`npm run bench:bulk\`)`,
    "",
    `${n.toLocaleString("en-GB")} subscribers, status set to \`${to}\` by the job's own code, batches of ${config().BULK_BATCH_SIZE.toLocaleString("en-GB")}; ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPU(s), Node ${process.version}.`,
    "",
    "| measure | value |",
    "|---|--:|",
    `| rows changed | ${result.processed.toLocaleString("en-GB")} |`,
    `| total time | ${seconds.toFixed(1)} s (${Math.round(result.processed / seconds).toLocaleString("en-GB")} rows/s) |`,
    `| batches | ${batches.length} |`,
    `| batch (one transaction) p50 / p95 / max | ${ms(quantile(batches, 0.5))} / ${ms(quantile(batches, 0.95))} / ${ms(Math.max(...batches))} |`,
    `| meanwhile, another connection's creation p50 / p95 / max (${inserts.length} of them) | ${ms(quantile(inserts, 0.5))} / ${ms(quantile(inserts, 0.95))} / ${ms(Math.max(...inserts))} |`,
    `| meanwhile, its first-page read p50 / max | ${ms(quantile(reads, 0.5))} / ${ms(Math.max(...reads))} |`,
    `| trigger-kept total after / actual rows | ${counts!.kept.toLocaleString("en-GB")} / ${counts!.actual.toLocaleString("en-GB")} |`,
  ].join("\n");
  console.log(`\n${table}`);
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync("bench/results/bulk.md", `${table}\n`);
});
