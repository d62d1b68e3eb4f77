// `npm run bench:export [-- N]`: the export worker's path (keyset batches as COPY text → Papa
// Parse's CSV, or the XLSX writer → file, fsync, rename) against PostgreSQL's own
// `COPY (SELECT …) TO STDOUT WITH CSV` of the same rows, side by side on a throwaway database of
// N subscribers (default 1,000,000, generated set-based).
// Prints a markdown table and writes it to bench/results/export.md. Ratios and medians of runs
// alternated in one session are what to read: machines here are shared and noisy.
//
//   BENCH_DATABASE_URL  server to use (default TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_RUNS          runs of each (default 3)        BENCH_KEEP_DB=1  keep the database (prints its name)
//   BENCH_REUSE_DB      name of a database kept by an earlier run (N subscribers already there)
// (checked by tools/env.ts: a bad value stops the run with a message naming it)
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { toolEnv } from "@/tools/env";
import { applyMigrations } from "@/tools/migrate";
import { seedSubscribers } from "../tests/helpers/export-data";
import { config } from "@/lib/config";
import { newJobId } from "@/lib/jobs/ids";
import { exportQuery } from "@/lib/export/rows";
import { branchScope } from "@/lib/auth/scope";
import { subscriberFilterOnlySchema } from "@/lib/subscribers/filters";
import { runScript } from "./script-utils";

type ChildResult = { ms: number; rows: number; idleRss: number; peakRss: number; bytes?: number };


/** One export run in a process of its own, so its memory is its own. */
async function child(exportId: string) {
  const { runExport } = await import("@/lib/export/run");
  const { connection } = await import("@/lib/db/sql");
  await (await connection()).query("SELECT 1");
  global.gc?.();
  const idleRss = process.memoryUsage().rss;
  let peakRss = idleRss;
  const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const started = performance.now();
  const result = await runExport(exportId);
  const ms = performance.now() - started;
  clearInterval(timer);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  if (!("rows" in result)) throw new Error(result.skipped);
  process.stdout.write(JSON.stringify({ ms, rows: result.rows, idleRss, peakRss } satisfies ChildResult));
  process.exit(0);
}

async function main() {
  const n = Number(process.argv[2] ?? 1_000_000);
  const settings = toolEnv(["BENCH_RUNS", "BENCH_DATABASE_URL", "TEST_DATABASE_URL", "BENCH_REUSE_DB", "BENCH_KEEP_DB", "BENCH_WORKER_HEAP_MB"]);
  const runs = settings.BENCH_RUNS;
  const base = settings.BENCH_DATABASE_URL ?? settings.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const reuse = settings.BENCH_REUSE_DB;
  const name = reuse ?? `export_bench_${crypto.randomBytes(4).toString("hex")}`;
  const url = Object.assign(new URL(base), { pathname: `/${name}` }).toString();
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  if (!reuse) await admin.query(`CREATE DATABASE "${name}"`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "export-bench-"));
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    let t = performance.now();
    if (!reuse) {
      await applyMigrations(url);
      await seedSubscribers((text) => client.query(text), n);
      await client.query("VACUUM ANALYZE");
      await client.query(`INSERT INTO users (email, name, password_hash, updated_at) VALUES ('bench@example.com', 'Bench', 'x', now())`);
      console.log(`› ${n.toLocaleString("en-GB")} subscribers generated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    const [{ id: userId }] = (await client.query(`SELECT id FROM users WHERE email = 'bench@example.com'`)).rows;

    const copy: number[] = [];
    const ours: ChildResult[] = [];
    const xlsx: ChildResult[] = [];
    const copySql = exportQuery(branchScope({ role: "admin", branch_ids: null }), subscriberFilterOnlySchema.parse({})).text; // no filter: no parameters, so COPY can take it as is
    for (let i = 0; i < runs; i++) {
      t = performance.now();
      const out = spawnSync("psql", [url, "-qAt", "-c", `COPY (${copySql}) TO STDOUT WITH CSV HEADER`, "-o", path.join(dir, "copy.csv")]);
      if (out.status !== 0) throw new Error(`psql: ${out.stderr.toString()}`);
      copy.push(performance.now() - t);

      for (const [format, results] of [["csv", ours], ["xlsx", xlsx]] as const) {
        const exportId = newJobId();
        await client.query(`INSERT INTO subscriber_exports (id, user_id, fresh, format) VALUES ($1, $2, true, $3)`, [exportId, userId, format]);
        results.push(await runChild(exportId, { ...process.env, DATABASE_URL: url, STORAGE_DIR: dir }, settings.BENCH_WORKER_HEAP_MB));
        const file = fs.statSync(path.join(dir, "exports", `${exportId}.${format}`)).size;
        results[i]!.bytes = file;
      }
      console.log(`  run ${i + 1}: COPY ${(copy[i]! / 1000).toFixed(2)} s, CSV ${(ours[i]!.ms / 1000).toFixed(2)} s (peak RSS ${mb(ours[i]!.peakRss)}), XLSX ${(xlsx[i]!.ms / 1000).toFixed(2)} s (peak RSS ${mb(xlsx[i]!.peakRss)})`);
    }
    for (const r of [...ours, ...xlsx]) if (r.rows !== n) throw new Error(`an export wrote ${r.rows} rows, expected ${n}`);
    const table = report(n, runs, copy, ours, xlsx, fs.statSync(path.join(dir, "copy.csv")).size, settings.BENCH_WORKER_HEAP_MB);
    console.log(`\n${table}`);
    fs.mkdirSync("bench/results", { recursive: true });
    fs.writeFileSync("bench/results/export.md", table);
  } finally {
    await client.end().catch(() => {});
    if (settings.BENCH_KEEP_DB || reuse) console.log(`database kept: ${name}`);
    else await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One export in a worker process as deployment.md runs one, its heap capped at `heapMb` (0: V8's
 * own limit, far above: V8 then lets the XLSX's garbage reach ~+100 MB before collecting it).
 */
function runChild(exportId: string, env: NodeJS.ProcessEnv, heapMb: number): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const heap = heapMb > 0 ? [`--max-old-space-size=${heapMb}`] : [];
    const p = spawn(process.execPath, ["--expose-gc", ...heap, "--import", "tsx", "scripts/bench-export.ts", "--child", exportId], { env, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    p.stdout.on("data", (d: Buffer) => (out += d.toString()));
    p.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as ChildResult) : reject(new Error(`export run exited ${code}`))));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function report(n: number, runs: number, copy: number[], ours: ChildResult[], xlsx: ChildResult[], bytes: number, heapMb: number) {
  const c = median(copy);
  const line = (label: string, results: ChildResult[], base?: number) => {
    const o = median(results.map((r) => r.ms));
    const idle = median(results.map((r) => r.idleRss));
    const peak = Math.max(...results.map((r) => r.peakRss));
    const size = `${(median(results.map((r) => r.bytes ?? 0)) / 1024 / 1024).toFixed(0)} MB`;
    const toCsv = base ? ` (${(o / base).toFixed(2)}× the CSV)` : "";
    return `| ${label} | ${(o / 1000).toFixed(2)} s | ${Math.round(n / (o / 1000)).toLocaleString("en-GB")} | ${(o / c).toFixed(2)}${toCsv} | ${size} | ${mb(idle)} → ${mb(peak)} (+${mb(peak - idle)}) |`;
  };
  const csvMedian = median(ours.map((r) => r.ms));
  return [
    `# Subscriber export benchmark`,
    ``,
    `${n.toLocaleString("en-GB")} subscribers (no filter, ${(bytes / 1024 / 1024).toFixed(0)} MB of CSV), median of ${runs} alternated runs, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPU(s), Node ${process.version}, worker heap ${heapMb ? `capped at ${heapMb} MB` : "V8's own limit"}.`,
    ``,
    `| path | median time | rows/s | ratio to COPY | file | worker RSS idle → peak |`,
    `|---|---|---|---|---|---|`,
    `| PostgreSQL \`COPY (SELECT …) TO STDOUT WITH CSV\` (psql, to a file) | ${(c / 1000).toFixed(2)} s | ${Math.round(n / (c / 1000)).toLocaleString("en-GB")} | 1.00 | ${(bytes / 1024 / 1024).toFixed(0)} MB | – |`,
    line(`export worker, CSV (keyset batches of ${config().EXPORT_BATCH_SIZE.toLocaleString("en-GB")} as COPY text, Papa Parse, fsync + rename)`, ours),
    line("export worker, XLSX (the same batches, the sheet's XML zipped by archiver at level 1, fsync + rename)", xlsx, csvMedian),
    ``,
  ].join("\n");
}

if (process.argv[2] === "--child") await child(process.argv[3]!);
else runScript(main);
