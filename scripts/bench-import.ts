// `npm run bench:import [-- N]`: an import of an N-row CSV (default 1,000,000) as the worker runs
// it (lib/imports/run.ts, in a process of its own whose memory is sampled), against PostgreSQL's
// own `COPY subscribers FROM` of the same rows (already resolved: ids, E.164 mobiles), side by
// side, alternated, into the same table; then a 100,000-row XLSX read as a stream. Its own
// database `console_import` (the demo's branches and countries, 1,000 subscribers). Writes
// bench/results/import.md and bench/README.md's table between its bench:import markers.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import pg from "pg";
import { toolEnv } from "@/tools/env";
import { benchDatabaseUrl, bulkLoad } from "@/tools/seed/bulk";
import { progressPrinter } from "./bench/progress";
import { replaceBetweenMarkers } from "./bench/stats";
import { DEFAULT_SERVER } from "./bulk-load";
import { runScript } from "./script-utils";

const HEADER = ["first_name", "last_name", "email", "mobile", "branch_name", "country_name", "travel_date", "subscription_status", "is_mandatory"];
const STATUSES = ["pending", "active", "expired", "cancelled"];
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

runScript(async () => {
  const settings = toolEnv(["BENCH_DATABASE_URL", "BENCH_IMPORT_RUNS", "BENCH_IMPORT_ONLY", "BENCH_IMPORT_TRACE"]);
  const n = Number(process.argv[2] ?? 1_000_000);
  const xlsxRows = Math.min(100_000, n);
  const url = benchDatabaseUrl(settings.BENCH_DATABASE_URL ?? DEFAULT_SERVER, "console_import");
  const load = await bulkLoad({ target: { kind: "postgres", url }, subscribers: 1_000, progress: progressPrinter() });
  console.log(load.loaded ? `› Loaded in ${load.seconds.toFixed(0)} s.` : "› Data already loaded.");
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const branches = (await db.query<{ id: number; name: string }>(`SELECT id, name FROM branches ORDER BY id`)).rows;
  const [gb] = (await db.query<{ id: number }>(`SELECT id FROM countries WHERE code = 'GB'`)).rows;
  const [{ base }] = (await db.query<{ base: number }>(`SELECT count(*)::int AS base FROM subscribers`)).rows as [{ base: number }];

  // The same rows twice: as a sheet arrives (names, national mobiles), and as COPY wants them.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-import-"));
  const sheetFile = path.join(dir, "sheet.csv");
  const copyFile = path.join(dir, "copy.csv");
  const sheet = fs.createWriteStream(sheetFile);
  const copy = fs.createWriteStream(copyFile);
  sheet.write(`${HEADER.join(",")}\n`);
  const row = (i: number) => {
    const b = branches[i % branches.length]!;
    const day = `2027-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;
    const national = `07400 ${String(i % 1_000_000).padStart(6, "0")}`;
    const e164 = `+447400${String(i % 1_000_000).padStart(6, "0")}`;
    return { first: `Imp${i}`, last: `Bench${i % 977}`, email: `import${i}@bench.test`, national, e164, b, day, status: STATUSES[i % 4]!, mandatory: i % 7 === 0 };
  };
  for (let i = 0; i < n; i++) {
    const r = row(i);
    const a = sheet.write(`${r.first},${r.last},${r.email},${r.national},"${r.b.name.replace(/"/g, '""')}",GB,${r.day},${r.status},${r.mandatory ? "yes" : "no"}\n`);
    const c = copy.write(`${r.first},${r.last},${r.email},${r.e164},${r.b.id},${gb!.id},${r.day},${r.status},${r.mandatory},true\n`);
    // Both listeners first: one stream may drain while the other is awaited.
    const drained = [!a && new Promise<void>((res) => sheet.once("drain", () => res())), !c && new Promise<void>((res) => copy.once("drain", () => res()))];
    await Promise.all(drained);
  }
  await Promise.all([new Promise((r) => sheet.end(r)), new Promise((r) => copy.end(r))]);
  console.log(`› ${n.toLocaleString("en-GB")} rows written (${mb(fs.statSync(sheetFile).size)} of CSV).`);

  const storageDir = path.join(dir, "files");
  const env = { ...process.env, DATABASE_URL: url, STORAGE_DIR: storageDir, JOB_WORKER: "off" };
  const reset = async () => {
    await db.query(`DELETE FROM subscribers WHERE email LIKE 'import%@bench.test'`);
    await db.query(`VACUUM ANALYZE subscribers`);
  };

  /** PostgreSQL's own: psql's \copy of the resolved rows (is_duplicate given: every row is new). */
  const copyOnce = () => {
    const started = performance.now();
    const r = spawnSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-c",
      `\\copy subscribers (first_name, last_name, email, mobile, branch_id, country_id, travel_date, subscription_status, is_mandatory, is_duplicate) FROM '${copyFile}' WITH (FORMAT csv)`], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(r.stderr);
    return (performance.now() - started) / 1000;
  };

  /** The console's: the file put in storage and an import row made as the upload makes them, then one worker attempt. */
  const importOnce = async (file: string, format: "csv" | "xlsx", headers: string[]) => {
    const id = `bench${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`.replace(/[^A-Za-z0-9]/g, "").padEnd(22, "x").slice(0, 22);
    fs.mkdirSync(path.join(storageDir, "imports"), { recursive: true });
    fs.copyFileSync(file, path.join(storageDir, "imports", `${id}.source`));
    const source = format === "csv" ? { format, encoding: "utf-8", bom: 0, delimiter: "," } : { format, worksheets: [{ name: "Subscribers", file: 1 }] };
    const [user] = (await db.query<{ id: number }>(`SELECT id FROM users ORDER BY id LIMIT 1`)).rows;
    await db.query(`INSERT INTO subscriber_imports (id, user_id, status, dry_run, file_name, source, headers, mapping) VALUES ($1, $2, 'in_queue', false, $3, $4, $5, $5)`,
      [id, user!.id, `bench.${format}`, JSON.stringify(source), JSON.stringify(headers)]);
    const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", "--conditions=react-server", "scripts/bench/import-worker.ts", id], { env, encoding: "utf8" });
    if (r.status !== 0) throw new Error(r.stderr || r.stdout);
    if (settings.BENCH_IMPORT_TRACE) console.log(r.stderr);
    const out = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as { seconds: number; idle: number; peak: number; result: { imported: number; rejected: number; duplicates: number } };
    if (out.result.imported !== (format === "csv" ? n : xlsxRows) || out.result.rejected !== 0) throw new Error(`unexpected result ${JSON.stringify(out.result)}`);
    return out;
  };

  const copies: number[] = [];
  const imports: { seconds: number; idle: number; peak: number }[] = [];
  const runs = settings.BENCH_IMPORT_ONLY === "xlsx" ? 0 : settings.BENCH_IMPORT_RUNS;
  for (let k = 0; k < runs; k++) {
    await reset();
    copies.push(copyOnce());
    console.log(`› COPY ${k + 1}: ${copies.at(-1)!.toFixed(1)} s`);
    await reset();
    imports.push(await importOnce(sheetFile, "csv", HEADER));
    console.log(`› import ${k + 1}: ${imports.at(-1)!.seconds.toFixed(1)} s, RSS ${mb(imports.at(-1)!.idle)} → ${mb(imports.at(-1)!.peak)}`);
  }
  await reset();

  // An XLSX of 100,000 rows, written as a stream too.
  const xlsxFile = path.join(dir, "sheet.xlsx");
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: xlsxFile, useSharedStrings: true });
  const ws = writer.addWorksheet("Subscribers");
  ws.addRow(HEADER).commit();
  for (let i = 0; i < xlsxRows; i++) {
    const r = row(i);
    ws.addRow([r.first, r.last, r.email, r.national, r.b.name, "GB", new Date(`${r.day}T00:00:00Z`), r.status, r.mandatory]).commit();
  }
  ws.commit();
  await writer.commit();
  const xlsx = await importOnce(xlsxFile, "xlsx", HEADER);
  console.log(`› XLSX: ${xlsx.seconds.toFixed(1)} s, RSS ${mb(xlsx.idle)} → ${mb(xlsx.peak)} (JS heap and buffers at most ${mb((xlsx as { heap?: number }).heap ?? 0)})`);
  if (runs === 0) return;
  await reset();
  const [{ after }] = (await db.query<{ after: number }>(`SELECT count(*)::int AS after FROM subscribers`)).rows as [{ after: number }];
  await db.end();
  fs.rmSync(dir, { recursive: true, force: true });
  if (after !== base) throw new Error(`the table was not left as found (${base} → ${after})`);

  const copyS = median(copies);
  const importS = median(imports.map((i) => i.seconds));
  const growth = Math.max(...imports.map((i) => i.peak - i.idle));
  const table = [
    "### Import benchmark (`npm run bench:import`)",
    "",
    `${n.toLocaleString("en-GB")} rows of CSV into a table with all its indexes and triggers (PostgreSQL, ${os.cpus().length} CPU(s), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}); median of ${runs} alternated runs.`,
    "",
    "| path | time | rows/s | ratio to COPY | worker RSS idle → peak |",
    "|---|--:|--:|--:|---|",
    `| PostgreSQL \`COPY subscribers FROM\` (psql \\copy, rows already resolved) | ${copyS.toFixed(1)} s | ${Math.round(n / copyS).toLocaleString("en-GB")} | 1.00 | – |`,
    `| import job (read, check, stage, one INSERT … SELECT) | ${importS.toFixed(1)} s | ${Math.round(n / importS).toLocaleString("en-GB")} | ${(importS / copyS).toFixed(2)} ${importS <= 2 * copyS ? "✓" : "✗"} (goal ≤ 2) | ${mb(imports[0]!.idle)} → ${mb(imports[0]!.idle + growth)} (+${mb(growth)}) ${growth <= 150 * 2 ** 20 ? "✓" : "✗"} |`,
    `| import job, ${xlsxRows.toLocaleString("en-GB")}-row XLSX (streamed) | ${xlsx.seconds.toFixed(1)} s | ${Math.round(xlsxRows / xlsx.seconds).toLocaleString("en-GB")} | – | ${mb(xlsx.idle)} → ${mb(xlsx.peak)} (+${mb(xlsx.peak - xlsx.idle)}) ${xlsx.peak - xlsx.idle <= 150 * 2 ** 20 ? "✓" : "✗"} |`,
  ].join("\n");
  console.log(`\n${table}`);
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync("bench/results/import.md", `${table}\n`);
  const readme = replaceBetweenMarkers(fs.readFileSync("bench/README.md", "utf8"), "bench:import", table.replace(/^### .*\n\n/, ""));
  if (readme) fs.writeFileSync("bench/README.md", readme);
  else console.warn("bench/README.md has no bench:import markers: its table was not updated.");
});
