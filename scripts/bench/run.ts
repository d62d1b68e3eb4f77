// `npm run bench`: the list pages and the JSON API against a database of a million subscribers,
// next to the floor (the same SQL sent straight to the database), at 1 and 10 connections.
// `npm run bench -- --embedded`: the same on PGlite with 100,000 subscribers, at 1 connection.
//
//   --subscribers N     rows to load (default 1,000,000; embedded 100,000)
//   --trashed N         subscribers in the trash beside them (default: as many as --subscribers),
//                       so the lists and totals are measured with the trash full
//   --connections 1,10  concurrency levels (embedded: 1)
//   --rounds 3 --seconds 3 --warmup 1
//                       each measurement is `rounds` runs of `seconds`, interleaved app (API,
//                       HTML) and floor, after `warmup` seconds of each; the table gives medians
//   --scenarios a,b     only these (ids in scripts/bench/scenarios.ts)
//   --database NAME     PostgreSQL database of the bench (default console_bench)
//   --rebuild           build even when the sources did not change
//   --app DIR           serve the production build in DIR instead (an experiment's)
//   --out DIR           where results go (default bench/results, embedded bench/results/embedded)
//   --abuse             only the abuse scenario (scripts/bench/abuse.ts: one user's burst beside
//                       another user's reads); a full run measures it too, after the scenarios
//   --abuse-seconds 5   length of each of its `rounds` measurements
//   --port N            serve the console on this port (default: a free one)
//   --instances N       only this: one web instance against N behind a round-robin balancer
//                       (nginx when installed, else a Node TCP balancer; scripts/bench/instances.ts),
//                       for --scenarios (default first-page,name-contains) at the first of
//                       --connections (default 10); PostgreSQL only
//
// Needs the react-server condition (the query modules import "server-only"): the npm script
// runs it with `tsx --conditions=react-server`.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "@/lib/db/client";
import type { DatabaseTarget } from "@/lib/db/config";
import { BENCH_SCOPED, BENCH_USERS, bulkLoad, ensureScopedBenchUser, fillTrash, resetBenchPassword } from "@/tools/seed/bulk";
import { bulkTarget } from "../bulk-load";
import { ensureBuild, FRAMEWORK_FLOOR } from "./build";
import { pageHasOwnFloor, postgresFloor, pgliteFloor, requestSql, writeExplain, type FloorDb } from "./floor";
import { loadDirect, loadHttp, probe } from "./load";
import { abuseMarkdown, BURST_CONNECTIONS, runAbuse, summarizeAbuse } from "./abuse";
import { loadAverage, machine, machineMarkdown } from "./machine";
import { kB, pageWeight, type PageWeight } from "./page-weight";
import { progressPrinter } from "./progress";
import { pickScenarios, scenariosFor, targetPath, type Scenario, type Target } from "./scenarios";
import { instancesMarkdown, measureInstances } from "./instances";
import { measureRoles, rolesMarkdown } from "./roles";
import { startServer, signIn, type Server } from "./server";
import { toolEnv } from "@/tools/env";
import { verifyFastPaths } from "./verify";
import { measureMerges } from "./merges";
import { fmt, goals, markdownTable, median, replaceBetweenMarkers, type Row, type Sample } from "./stats";

const ROOT = process.cwd();
const POOL_SIZE = 10; // the app's default (DATABASE_POOL_SIZE), set explicitly for the server
/** Duplicate groups merged (and their merges undone) by the merge measurement. */
const MERGES = 20;

const { values: args } = parseArgs({
  options: {
    embedded: { type: "boolean", default: false },
    subscribers: { type: "string" },
    trashed: { type: "string" },
    connections: { type: "string" },
    rounds: { type: "string", default: "3" },
    seconds: { type: "string", default: "3" },
    warmup: { type: "string", default: "1" },
    scenarios: { type: "string" },
    database: { type: "string" },
    rebuild: { type: "boolean", default: false },
    app: { type: "string" },
    out: { type: "string" },
    abuse: { type: "boolean", default: false },
    roles: { type: "boolean", default: false },
    "abuse-seconds": { type: "string", default: "5" },
    port: { type: "string" },
    instances: { type: "string" },
  },
});

const embedded = args.embedded!;
const subscribers = Number(args.subscribers ?? (embedded ? 100_000 : 1_000_000));
const trashed = Number(args.trashed ?? subscribers);
const connections = (args.connections ?? (embedded ? "1" : "1,10")).split(",").map(Number);
const rounds = Number(args.rounds);
const seconds = Number(args.seconds);
const warmup = Number(args.warmup);
const instances = args.instances === undefined ? undefined : Number(args.instances);
if (instances !== undefined && (!Number.isInteger(instances) || instances < 2 || instances > 8)) throw new Error("--instances must be a whole number from 2 to 8");
if (instances !== undefined && embedded) throw new Error("--instances needs PostgreSQL: the embedded database is one process's");
const scenarios = pickScenarios(args.scenarios ?? (instances ? "first-page,name-contains" : undefined), scenariosFor(subscribers));
const outDir = path.resolve(args.out ?? (embedded ? "bench/results/embedded" : "bench/results"));
const kind = embedded ? "embedded" : "postgres";
const p95Limit = embedded ? { connections: 1, ms: 500 } : { connections: 10, ms: 300 };
const abuseSeconds = Number(args["abuse-seconds"]);
const port = args.port === undefined ? undefined : Number(args.port);
for (const [name, n] of Object.entries({ subscribers, trashed, rounds, seconds, warmup, "abuse-seconds": abuseSeconds })) {
  if (!Number.isFinite(n) || n < (name === "warmup" || name === "trashed" ? 0 : 1)) throw new Error(`--${name} must be a positive number`);
}
if (connections.some((c) => !Number.isInteger(c) || c < 1)) throw new Error("--connections must be whole numbers, e.g. 1,10");

/** A scenario at one concurrency: the app's API and page, and their floors (one when the page runs the API's statements). */
type Cell = { scenario: Scenario; connections: number; api: Sample[]; html: Sample[]; floorApi: Sample[]; floorHtml: Sample[] };
/**
 * bench/framework-floor at one concurrency: its empty route handler and page (`scenario`
 * "empty"), or its route handler and page that run a scenario's statements.
 */
type FrameworkCell = { scenario: string; connections: number; api: Sample[]; html: Sample[] };

async function main() {
  const started = Date.now();
  const loadStart = loadAverage();
  const target: DatabaseTarget = bulkTarget({ embedded, subscribers, database: args.database });
  const where = target.kind === "postgres" ? target.url : target.dir;
  console.log(`› Bench (${kind}): ${subscribers.toLocaleString("en-GB")} subscribers in ${where}`);

  // 1. Data (skipped when the database already holds exactly that).
  const load = await bulkLoad({ target, subscribers, progress: progressPrinter() });
  console.log(load.loaded ? `› Loaded in ${load.seconds.toFixed(0)} s.` : "› Data already loaded.");
  const trash = await fillTrash(target, trashed, progressPrinter());
  console.log(trash.filled ? `› Trash filled with ${trashed.toLocaleString("en-GB")} subscribers in ${trash.seconds.toFixed(0)} s.` : `› Trash already holds ${trashed.toLocaleString("en-GB")} subscribers.`);

  // 2. The production build (or, with --app, a build made elsewhere: to compare a change).
  const build = args.app
    ? { dir: path.resolve(args.app), rebuilt: false, seconds: 0, hash: "" }
    : ensureBuild(ROOT, { force: args.rebuild });

  // 3. A login only this run knows; the floor's connection; the query plans.
  const database = await openDatabase(target);
  const password = await resetBenchPassword(database, BENCH_USERS[1]!.email);
  const adminPassword = await resetBenchPassword(database, BENCH_USERS[0]!.email);
  await ensureScopedBenchUser(database);
  scopedPassword = await resetBenchPassword(database, BENCH_SCOPED.email);
  const serverEnv: Record<string, string> =
    target.kind === "postgres"
      ? { DATABASE_URL: target.url, DATABASE_POOL_SIZE: String(POOL_SIZE) }
      : { DATABASE_URL: "", PGLITE_DIR: target.dir };
  if (args.abuse || args.roles) {
    await database.close();
    await partOnly(build.dir, serverEnv, password, adminPassword, started);
    return;
  }
  if (instances) {
    await database.close();
    await instancesReport(build.dir, serverEnv, password, instances, started);
    return;
  }
  let floor: FloorDb;
  if (target.kind === "postgres") {
    await database.close();
    floor = postgresFloor(target.url, POOL_SIZE);
  } else {
    floor = pgliteFloor(database.pglite!);
  }
  const dbVersion = await floor.version();
  const [benchUser] = await floor.query("SELECT id FROM users WHERE email = $1", [BENCH_USERS[1]!.email]);
  const userId = Number(benchUser!.id);
  console.log(`› Checked: ${await verifyFastPaths(floor)}.`);
  const explainDir = path.join(outDir, "explain");
  fs.rmSync(explainDir, { recursive: true, force: true });
  for (const s of scenarios) {
    await writeExplain(floor, s, explainDir, `${dbVersion}, ${subscribers.toLocaleString("en-GB")} subscribers, ${trashed.toLocaleString("en-GB")} trashed`);
  }
  console.log(`› EXPLAIN (ANALYZE, BUFFERS) written to ${path.relative(ROOT, explainDir)}/`);

  const cells: Cell[] = scenarios.flatMap((scenario) =>
    connections.map((c) => ({ scenario, connections: c, api: [], html: [], floorApi: [], floorHtml: [] })),
  );
  const totals = new Map<string, number>();
  const floorRound = async (cell: Cell, record: boolean) => {
    const measure = (t: Target) =>
      loadDirect({ request: floor.request(cell.scenario, t, userId), connections: cell.connections, seconds: record ? seconds : warmup });
    const api = await measure("api");
    const html = pageHasOwnFloor(cell.scenario) ? await measure("html") : null;
    if (!record) return;
    cell.floorApi.push(api);
    if (html) cell.floorHtml.push(html);
  };

  // PGlite is one process's: its floor is measured before the server opens the folder.
  if (target.kind === "pglite") {
    for (const s of scenarios) totals.set(s.id, await floor.count(s));
    for (const cell of cells) {
      console.log(`› floor ${cell.scenario.id} ×${cell.connections}`);
      if (warmup) await floorRound(cell, false);
      for (let r = 0; r < rounds; r++) await floorRound(cell, true);
    }
    await floor.close();
    await database.close();
  } else {
    for (const s of scenarios) totals.set(s.id, await floor.count(s));
  }

  // 4. The server.
  console.log("› Starting next start…");
  const server: Server = await startServer(build.dir, serverEnv, [], "/login", port);
  let weight: PageWeight;
  let merges: Awaited<ReturnType<typeof measureMerges>> | null = null;
  try {
    const cookie = await signIn(server.url, BENCH_USERS[1]!.email, password);
    for (const s of scenarios) await check(server, cookie, s, totals.get(s.id)!);
    weight = await pageWeight(server.url, "/subscribers", cookie);
    console.log(`› /subscribers downloads ${kB(weight.jsGzip)} of JavaScript (gzip), ${weight.scripts.length} files.`);

    // 5. The measurements: per scenario and concurrency, warm-up then interleaved rounds.
    for (const cell of cells) {
      const { scenario: s, connections: c } = cell;
      const api = `${server.url}${targetPath(s, "api")}`;
      const html = `${server.url}${targetPath(s, "html")}`;
      if (warmup) {
        await loadHttp({ url: api, cookie, connections: c, seconds: warmup });
        await loadHttp({ url: html, cookie, connections: c, seconds: warmup });
        if (target.kind === "postgres") await floorRound(cell, false);
      }
      for (let r = 0; r < rounds; r++) {
        cell.api.push(await loadHttp({ url: api, cookie, connections: c, seconds }));
        cell.html.push(await loadHttp({ url: html, cookie, connections: c, seconds }));
        if (target.kind === "postgres") await floorRound(cell, true);
      }
      const line = (name: string, xs: Sample[]) => `${name} p50 ${median(xs.map((x) => x.p50)).toFixed(1)} ms`;
      const floors = cell.floorHtml.length ? `${line("floor api", cell.floorApi)}, ${line("floor html", cell.floorHtml)}` : line("floor", cell.floorApi);
      console.log(`› ${s.id} ×${c}: ${line("api", cell.api)}, ${line("html", cell.html)}, ${floors}`);
    }

    // 6. The same pages as an admin (a cost only admins pay), and one user's burst beside another
    // user's reads (the abuse scenario).
    await measureRolesReport(server, cookie, adminPassword);
    if (!args.scenarios) await measureAbuse(server, cookie, adminPassword);
    // Merges of duplicate groups (each undone after), when the duplicates review is measured.
    if (scenarios.some((s) => s.resource === "duplicates")) {
      merges = await measureMerges({ url: server.url, adminCookie: await signIn(server.url, BENCH_USERS[0]!.email, adminPassword), count: MERGES });
      console.log(`› merges of ${merges.groups} groups: p50 ${fmt(merges.merge.p50)} ms, p95 ${fmt(merges.merge.p95)} ms; undo p95 ${fmt(merges.undo.p95)} ms`);
    }
  } catch (error) {
    console.error(server.log().slice(-4000));
    throw error;
  } finally {
    await server.stop();
    if (target.kind === "postgres") await floor.close();
  }

  // 7. The framework's floor, with the console's server stopped.
  const framework = await measureFramework(target.kind === "postgres" ? { url: target.url, userId } : null);
  const frameworkP50 = (scenario: string, t: Target, c: number) => {
    const cell = framework.find((f) => f.scenario === scenario && f.connections === c) ?? framework.find((f) => f.scenario === "empty" && f.connections === c);
    return cell ? median(cell[t].map((x) => x.p50)) : undefined;
  };

  // 8. The table and the files.
  const rows = cells.flatMap((cell) => toRows(cell, (t, c) => frameworkP50(cell.scenario.id, t, c)));
  const table = markdownTable(rows);
  console.log(`\n${table}\n`);
  const checks = rows.flatMap((r) => r.goals);
  const passed = checks.filter((g) => g.ok).length;
  console.log(`› Goals: ${passed}/${checks.length} met. Page weight: ${kB(weight.jsGzip)} of JavaScript (limit 150 kB).`);

  const m = machine(dbVersion, loadStart);
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  const report = [
    `# Benchmark: ${embedded ? "PGlite (embedded)" : "PostgreSQL"}, ${subscribers.toLocaleString("en-GB")} subscribers (and ${trashed.toLocaleString("en-GB")} in the trash)`,
    "",
    `Produced by \`npm run bench${embedded ? " -- --embedded" : ""}\` on ${new Date().toISOString()} (${minutes} min${load.loaded ? `, data loaded in ${load.seconds.toFixed(0)} s` : ""}${build.rebuilt ? `, built in ${build.seconds.toFixed(0)} s` : ""}).`,
    "",
    machineMarkdown(m, {
      Method:
        `${rounds} rounds × ${seconds} s per target after ${warmup} s warm-up; app (autocannon, keep-alive, gzip) and floor ` +
        `(the request's statements: the session's user, then rows + count, and on /subscribers pages the export status, at once; ` +
        `${embedded ? "the same PGlite folder in the bench process, measured before the server opened it" : `pg pool of ${POOL_SIZE}`}) ` +
        `${embedded ? "" : "interleaved in each round; "}values are medians of the rounds, ratio = median of the rounds' app p50 / floor p50`,
    }),
    "",
    "## Results",
    "",
    table,
    "",
    `Goals met: ${passed}/${checks.length}. API p50 ≤ 1.5 × floor + 5 ms; HTML p50 ≤ 2 × floor + 15 ms; p95 ≤ ${p95Limit.ms} ms at ${p95Limit.connections} connection${p95Limit.connections > 1 ? "s" : ""}.`,
    "",
    "## Framework floor",
    "",
    "The same Next.js, React and Node, built and served the same way, with nothing of the console (`bench/framework-floor`): `empty` is a route handler answering `{\"data\":[]}` (`api`) and a dynamic page with a heading (`html`); each scenario's row is a route handler and a page that run that scenario's floor statements with `pg` (no session cookie, proxy, validation or ORM) and answer the rows as JSON or a plain table. No Next.js answer with those statements is faster on this machine: the goals above that allow less than it say so.",
    "",
    frameworkTable(framework),
    "",
    `Goals below the framework floor: ${checks.filter((g) => g.text.includes("below the framework")).length}.`,
    "",
    ...(merges
      ? [
          "## Merges",
          "",
          `${merges.groups} duplicate groups sharing an email merged one at a time through \`POST /api/v1/subscribers/merge\` (an administrator, into the oldest member), then each undone: merge p50 ${fmt(merges.merge.p50)} ms, p95 ${fmt(merges.merge.p95)} ms (goal ≤ 200 ms ${merges.merge.p95 <= 200 ? "✓" : "✗"}); undo p50 ${fmt(merges.undo.p50)} ms, p95 ${fmt(merges.undo.p95)} ms.`,
          "",
        ]
      : []),
    "## Page weight",
    "",
    `JavaScript the browser downloads for /subscribers: **${kB(weight.jsGzip)}** gzip (zlib level 6, computed by the bench) in ${weight.scripts.length} files, ${kB(weight.jsBytes)} uncompressed; limit 150 kB ${weight.jsGzip <= 150_000 ? "✓" : "✗"}. The HTML document itself (with the inline RSC payload): ${kB(weight.htmlGzip)} gzip, ${kB(weight.htmlBytes)} uncompressed.`,
    "",
    "## Indexes serving each query",
    "",
    "| scenario | matches | rows query | count query |",
    "|---|--:|---|---|",
    ...scenarios.map((s) => {
      const text = fs.readFileSync(path.join(explainDir, `${s.id}.txt`), "utf8");
      const [rowsPlan = "", countPlan = ""] = text.split("── count ──");
      return `| ${s.id} | ${totals.get(s.id)!.toLocaleString("en-GB")} | ${indexesOf(rowsPlan)} | ${indexesOf(countPlan)} |`;
    }),
    "",
    `Full plans (EXPLAIN (ANALYZE, BUFFERS)): [explain/](explain/).`,
    "",
    exportSection(),
  ].join("\n");

  fs.mkdirSync(path.join(outDir, "runs"), { recursive: true });
  fs.writeFileSync(path.join(outDir, "latest.md"), report);
  fs.writeFileSync(path.join(outDir, "runs", `${new Date().toISOString().replace(/[:.]/g, "-")}.md`), report);
  fs.writeFileSync(
    path.join(outDir, "latest.json"),
    JSON.stringify({ kind, subscribers, machine: m, rounds, seconds, warmup, rows, pageWeight: weight, cells }, null, 2),
  );
  // Only a full run of the sources as they are speaks for bench/README.md.
  if (!args.out && !args.app && !args.scenarios) updateBenchReadme(kind, report);
  console.log(`› Wrote ${path.relative(ROOT, path.join(outDir, "latest.md"))} (${minutes} min).`);
}

/** `--abuse`, `--roles`: the console's server, signed in as both bench users, and those parts only. */
async function partOnly(dir: string, env: Record<string, string>, password: string, adminPassword: string, started: number) {
  console.log("› Starting the server…");
  const server = await startServer(dir, env, [], "/login", port);
  try {
    const cookie = await signIn(server.url, BENCH_USERS[1]!.email, password);
    if (args.roles) await measureRolesReport(server, cookie, adminPassword);
    if (args.abuse) await measureAbuse(server, cookie, adminPassword);
  } catch (error) {
    console.error(server.log().slice(-4000));
    throw error;
  } finally {
    await server.stop();
  }
  console.log(`› Done in ${((Date.now() - started) / 60_000).toFixed(1)} min.`);
}

/**
 * `--instances N`: one web instance against N behind a balancer. Writes instances.md and, for a
 * run of the sources as they are, bench/README.md's block between the bench:instances-postgres markers.
 */
async function instancesReport(dir: string, env: Record<string, string>, password: string, n: number, started: number) {
  const c = args.connections === undefined ? 10 : connections[0]!;
  const loadStart = loadAverage();
  const { rows, balancer } = await measureInstances({
    dir,
    env,
    instances: n,
    scenarios,
    connections: c,
    rounds,
    seconds,
    warmup,
    signIn: (url) => signIn(url, BENCH_USERS[1]!.email, password),
    log: (line) => console.log(line),
  });
  const m = machine("PostgreSQL (the bench database), on the same machine", loadStart);
  const report = [
    `# One web instance against ${n}: PostgreSQL, ${subscribers.toLocaleString("en-GB")} subscribers`,
    "",
    `Produced by \`npm run bench -- --instances ${n}\` on ${new Date().toISOString()} (${((Date.now() - started) / 60_000).toFixed(1)} min).`,
    "",
    machineMarkdown(m, { Balancer: balancer, Load: `${c} connections (autocannon, keep-alive), ${rounds} rounds × ${seconds} s per configuration after ${warmup} s warm-up, interleaved; medians of the rounds` }),
    "",
    instancesMarkdown(rows, n),
    "",
  ].join("\n");
  console.log(`\n${instancesMarkdown(rows, n)}\n`);
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, "instances.md"), report);
  if (!args.out && !args.app && !args.scenarios) updateBenchReadme("instances-postgres", report);
  console.log(`› Wrote ${path.relative(ROOT, path.join(outDir, "instances.md"))} (${((Date.now() - started) / 60_000).toFixed(1)} min).`);
}

/**
 * Every scenario as staff and as admin at one connection (scripts/bench/roles.ts). Writes
 * roles.md and, for a run of the sources as they are, bench/README.md's block between the
 * bench:roles-<kind> markers.
 */
/** The scoped bench user's password of this run (set with the others'). */
let scopedPassword = "";

async function measureRolesReport(server: Server, staffCookie: string, adminPassword: string) {
  const adminCookie = await signIn(server.url, BENCH_USERS[0]!.email, adminPassword);
  const scopedCookie = await signIn(server.url, BENCH_SCOPED.email, scopedPassword);
  console.log(`› Roles: every scenario as staff, as admin and as staff scoped to one branch, 1 connection (${rounds} × ${seconds} s each)…`);
  const loadStart = loadAverage();
  const rows = await measureRoles({ url: server.url, staffCookie, adminCookie, scopedCookie, scenarios, rounds, seconds, warmup });
  const { table, met, total } = rolesMarkdown(rows);
  console.log(`› Roles: ${met}/${total} pages cost an admin and a scoped staff member what they cost staff.`);
  const m = machine(embedded ? "PGlite (embedded)" : "PostgreSQL (the bench database)", loadStart);
  const report = [
    `# The same pages as staff, as an admin and as staff scoped to one branch: ${embedded ? "PGlite" : "PostgreSQL"}, ${subscribers.toLocaleString("en-GB")} subscribers`,
    "",
    `Produced by \`npm run bench${embedded ? " -- --embedded" : ""}${args.roles ? `${embedded ? "" : " --"} --roles` : ""}\` on ${new Date().toISOString()}.`,
    "",
    machineMarkdown(m, args.app ? { Build: `served from ${args.app}` } : {}),
    "",
    `${rounds} rounds × ${seconds} s per role after ${warmup} s warm-up, interleaved; medians of the rounds' p50.`,
    "",
    table,
    "",
    `Goals met: ${met}/${total}.`,
    "",
  ].join("\n");
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, "roles.md"), report);
  if (!args.out && !args.app && !args.scenarios) updateBenchReadme(`roles-${kind}`, report);
}

/**
 * The abuse scenario on a running server: the staff bench user's burst beside the admin bench
 * user's reads. Writes abuse.md to the results folder and, for a run of the sources as they are,
 * bench/README.md's block between the bench:abuse-<kind> markers.
 */
async function measureAbuse(server: Server, staffCookie: string, adminPassword: string) {
  const adminCookie = await signIn(server.url, BENCH_USERS[0]!.email, adminPassword);
  console.log(`› Abuse: ${BURST_CONNECTIONS} connections of one user's worst requests beside another user's reads (${rounds} × ${abuseSeconds} s)…`);
  const loadStart = loadAverage();
  const result = await runAbuse({ url: server.url, adminCookie, staffCookie, seconds: abuseSeconds, rounds });
  const s = summarizeAbuse(result);
  console.log(`› Abuse: the other user's p95 ${s.aloneP95.toFixed(1)} ms alone, ${s.duringP95.toFixed(1)} ms during the burst; ${s.otherFailed} of their reads failed.`);
  const m = machine(embedded ? "PGlite (embedded)" : "PostgreSQL (the bench database)", loadStart);
  const report = [
    `# One user's burst beside another user's reads: ${embedded ? "PGlite" : "PostgreSQL"}, ${subscribers.toLocaleString("en-GB")} subscribers`,
    "",
    `Produced by \`npm run bench${embedded || args.abuse ? ` --${embedded ? " --embedded" : ""}${args.abuse ? " --abuse" : ""}` : ""}\` on ${new Date().toISOString()}.`,
    "",
    machineMarkdown(m, args.app ? { Build: `served from ${args.app}` } : {}),
    "",
    abuseMarkdown(result, p95Limit.ms),
    "",
  ].join("\n");
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, "abuse.md"), report);
  fs.writeFileSync(path.join(outDir, "abuse.json"), JSON.stringify({ kind, subscribers, summary: s, result }, null, 2));
  if (!args.out && !args.app) updateBenchReadme(`abuse-${kind}`, report);
}

/**
 * Builds (when changed) and serves bench/framework-floor, and measures it like the console: its
 * empty route and page, and on PostgreSQL its route and page running each scenario's statements.
 */
async function measureFramework(sql: { url: string; userId: number } | null): Promise<FrameworkCell[]> {
  const build = ensureBuild(ROOT, {
    ...FRAMEWORK_FLOOR,
    force: args.rebuild,
  });
  const env: Record<string, string> = {};
  if (sql) {
    const file = path.join(build.dir, "statements.json");
    const statements = Object.fromEntries(
      scenarios.map((s) => [s.id, { api: requestSql(s, "api", sql.userId), html: requestSql(s, "html", sql.userId) }]),
    );
    fs.writeFileSync(file, JSON.stringify(statements));
    Object.assign(env, { DATABASE_URL: sql.url, FLOOR_STATEMENTS: file, FLOOR_POOL_SIZE: String(POOL_SIZE) });
  }
  console.log("› Starting the framework floor (bench/framework-floor)…");
  const server = await startServer(build.dir, env, [], "/api/empty");
  const paths = (id: string) => (id === "empty" ? { api: "/api/empty", html: "/page" } : { api: `/api/sql/${id}`, html: `/sql/${id}` });
  try {
    const out: FrameworkCell[] = [];
    for (const id of ["empty", ...(sql ? scenarios.map((s) => s.id) : [])]) {
      for (const c of connections) {
        const cell: FrameworkCell = { scenario: id, connections: c, api: [], html: [] };
        const api = { url: `${server.url}${paths(id).api}`, cookie: "", connections: c };
        const html = { url: `${server.url}${paths(id).html}`, cookie: "", connections: c };
        if (warmup) {
          await loadHttp({ ...api, seconds: warmup });
          await loadHttp({ ...html, seconds: warmup });
        }
        for (let r = 0; r < rounds; r++) {
          cell.api.push(await loadHttp({ ...api, seconds }));
          cell.html.push(await loadHttp({ ...html, seconds }));
        }
        const p50 = (xs: Sample[]) => median(xs.map((x) => x.p50)).toFixed(1);
        console.log(`› framework ${id} ×${c}: api p50 ${p50(cell.api)} ms, html p50 ${p50(cell.html)} ms`);
        out.push(cell);
      }
    }
    return out;
  } finally {
    await server.stop();
  }
}

function frameworkTable(cells: FrameworkCell[]): string {
  const lines = cells.flatMap((cell) =>
    (["api", "html"] as const).map((t) => {
      const xs = cell[t];
      const m = (k: "p50" | "p95" | "rps") => median(xs.map((x) => x[k]));
      const errors = xs.reduce((n, x) => n + x.errors, 0);
      return `| ${cell.scenario} | ${t} | ${cell.connections} | ${fmt(m("p50"))} | ${fmt(m("p95"))} | ${m("rps").toFixed(0)}${errors ? ` (${errors} errors)` : ""} |`;
    }),
  );
  return ["| framework floor | target | conns | p50 ms | p95 ms | req/s |", "|---|---|--:|--:|--:|--:|", ...lines].join("\n");
}

function toRows(cell: Cell, frameworkP50: (t: Target, c: number) => number | undefined): Row[] {
  const floors = { api: cell.floorApi, html: cell.floorHtml.length ? cell.floorHtml : cell.floorApi };
  const row = (target: Row["target"], xs: Sample[], floor: Sample[]): Row => {
    const floorP50 = median(floor.map((x) => x.p50));
    const p50 = median(xs.map((x) => x.p50));
    const p95 = median(xs.map((x) => x.p95));
    const ratios = xs.map((x, i) => x.p50 / (floor[i] ?? floor[0]!).p50);
    const app = target === "api" || target === "html" ? target : null;
    const r = { target, connections: cell.connections, p50, p95, floorP50 };
    return {
      scenario: cell.scenario.id,
      ...r,
      rps: median(xs.map((x) => x.rps)),
      ratio: app ? median(ratios) : 1,
      errors: xs.reduce((n, x) => n + x.errors, 0),
      goals: goals(r, p95Limit, app ? frameworkP50(app, cell.connections) : undefined),
    };
  };
  const floorRows = cell.floorHtml.length
    ? [row("floor api", cell.floorApi, cell.floorApi), row("floor html", cell.floorHtml, cell.floorHtml)]
    : [row("floor", cell.floorApi, cell.floorApi)];
  return [row("api", cell.api, floors.api), row("html", cell.html, floors.html), ...floorRows];
}

/** The app answers this scenario, signed in, with the same total as the SQL. */
async function check(server: Server, cookie: string, s: Scenario, total: number) {
  const api = await probe(`${server.url}${targetPath(s, "api")}`, cookie);
  if (api.status !== 200) throw new Error(`${targetPath(s, "api")} answered ${api.status}: ${api.body.slice(0, 300)}`);
  const body = JSON.parse(api.body) as { data: unknown[]; pagination: { total: number } };
  if (body.pagination.total !== total || body.data.length === 0) {
    throw new Error(`${targetPath(s, "api")}: total ${body.pagination.total} and ${body.data.length} rows, the SQL counts ${total}.`);
  }
  const html = await probe(`${server.url}${targetPath(s, "html")}`, cookie);
  if (html.status !== 200 || !html.type.includes("text/html") || /type="password"/.test(html.body)) {
    throw new Error(`${targetPath(s, "html")} answered ${html.status} ${html.type} (not the signed-in page).`);
  }
}

/** "subscribers_created_at_id_idx, …" from a plan. */
function indexesOf(plan: string): string {
  const names = [...plan.matchAll(/(?:Index (?:Only )?Scan(?: Backward)? using|Bitmap Index Scan on) (\S+)/g)].map((m) => m[1]!);
  const seq = [...plan.matchAll(/Seq Scan on (\S+)/g)].map((m) => `seq scan ${m[1]}`);
  const all = [...new Set([...names, ...seq])];
  return all.length ? all.map((n) => `\`${n}\``).join(", ") : "–";
}

function exportSection(): string {
  const file = path.join(ROOT, "bench/results/export.md");
  if (!fs.existsSync(file)) return "## Export\n\nNo export benchmark yet (`npm run bench:export` writes bench/results/export.md).\n";
  const text = fs.readFileSync(file, "utf8").replace(/^# /m, "### ");
  return `## Export (bench/results/export.md, from \`npm run bench:export\`)\n\n${text.trim()}\n`;
}

/** bench/README.md's block between the `<!-- bench:<kind>:start -->` markers gets the latest report. */
function updateBenchReadme(kind: string, report: string) {
  const body = report
    .replace(/^# .*\n/, "")
    .replace(/^## /gm, "#### ")
    .replace(/\]\(explain\//g, `](${kind === "embedded" ? "results/embedded" : "results"}/explain/`);
  const p = path.join(ROOT, "bench/README.md");
  const text = fs.readFileSync(p, "utf8");
  const next = replaceBetweenMarkers(text, `bench:${kind}`, body);
  if (next !== null && next !== text) fs.writeFileSync(p, next);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(toolEnv(["DEBUG"]).DEBUG !== undefined ? error : `Error: ${error instanceof Error ? error.message.slice(0, 2000) : String(error)}`);
    process.exit(1);
  },
);
