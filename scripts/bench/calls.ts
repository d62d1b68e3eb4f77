// How many times a page's request calls each function of the modules it names: a production build
// served with V8's precise coverage (call counts, exact where a CPU profile only samples), warmed
// up, then asked for the page `--requests` times; prints the calls per request, most first. What a
// profile cannot tell apart (a costly function, or a cheap one called often) this counts.
//
//   npx tsx --conditions=react-server scripts/bench/calls.ts [--path /branches] [--requests 50]
//       [--match intl|catalogues] [--accept-language ar] [--top 40] DIR
//
// DIR: a folder with a production build, as for scripts/bench/ab.ts; on the PostgreSQL bench
// database (`npm run db:bulk`), as the administrator. `--match` is a regular expression on the
// script's URL (a bundled chunk's name carries its package's: node_modules_use-intl_…).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "@/lib/db/client";
import { BENCH_USERS, resetBenchPassword } from "@/tools/seed/bulk";
import { bulkTarget } from "../bulk-load";
import { signIn, startServer } from "./server";

const { values: args, positionals: dirs } = parseArgs({
  allowPositionals: true,
  options: {
    path: { type: "string", default: "/branches" },
    requests: { type: "string", default: "50" },
    match: { type: "string", default: "intl|catalogues" },
    "accept-language": { type: "string", default: "en" },
    top: { type: "string", default: "40" },
  },
});
if (dirs.length !== 1) throw new Error("Name one folder holding a production build.");
const requests = Number(args.requests);

type Coverage = { url: string; functions: { functionName: string; ranges: { startOffset: number; count: number }[] }[] }[];

// Loaded into the server with --require: starts precise coverage, and writes the counts so far to
// the file named by CALLS_OUT each time the process gets SIGUSR2.
const work = fs.mkdtempSync(path.join(os.tmpdir(), "console-calls-"));
const preload = path.join(work, "coverage.cjs");
fs.writeFileSync(
  preload,
  `const inspector = require("node:inspector"); const fs = require("node:fs");
const session = new inspector.Session(); session.connect();
session.post("Profiler.enable", () => session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false }));
let n = 0;
process.on("SIGUSR2", () => session.post("Profiler.takePreciseCoverage", (error, answer) => {
  const match = new RegExp(process.env.CALLS_MATCH);
  fs.writeFileSync(process.env.CALLS_OUT + "." + ++n, JSON.stringify(error ? [] : answer.result.filter((s) => match.test(s.url))));
}));
`,
);

const target = bulkTarget({ subscribers: 1_000_000 });
if (target.kind !== "postgres") throw new Error("The counts are taken on the PostgreSQL bench database.");
const database = await openDatabase(target);
const admin = BENCH_USERS[0]!.email;
const password = await resetBenchPassword(database, admin);
await database.close();

const out = path.join(work, "counts");
const server = await startServer(
  path.resolve(dirs[0]!),
  { DATABASE_URL: target.url, DATABASE_POOL_SIZE: "4", WEB_CONCURRENCY: "1", HEAVY_REQUESTS_PER_USER: "1000", HEAVY_REQUESTS_QUEUE: "1000", CALLS_OUT: out, CALLS_MATCH: args.match },
  ["--require", preload],
);
try {
  const cookie = await signIn(server.url, admin, password);
  const get = async () => {
    const r = await fetch(`${server.url}${args.path}`, { headers: { cookie, "accept-language": args["accept-language"] } });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${args.path} answered ${r.status}.`);
  };
  let taken = 0;
  const counts = async (): Promise<Coverage> => {
    process.kill(server.pid, "SIGUSR2");
    const file = `${out}.${++taken}`;
    for (let waited = 0; !fs.existsSync(file); waited += 100) {
      if (waited > 10_000) throw new Error("The server wrote no coverage.");
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 200)); // written in one call, but not necessarily flushed when it appears
    return JSON.parse(fs.readFileSync(file, "utf8")) as Coverage;
  };
  for (let i = 0; i < 5; i++) await get();
  // Taking the coverage resets V8's counters: the second take counts the measured requests alone.
  await counts();
  for (let i = 0; i < requests; i++) await get();
  const rows: [number, string][] = [];
  for (const s of await counts()) {
    for (const f of s.functions) {
      const calls = f.ranges[0]!.count / requests;
      if (calls > 0) rows.push([calls, `${s.url.split("/").slice(-2).join("/")} ${f.functionName || "(anonymous)"}@${f.ranges[0]!.startOffset}`]);
    }
  }
  rows.sort((a, b) => b[0] - a[0]);
  console.log(`calls per request of ${args.path} (${requests} requests, Accept-Language ${args["accept-language"]}), functions of scripts matching /${args.match}/:`);
  for (const [calls, name] of rows.slice(0, Number(args.top))) console.log(`${calls.toFixed(1).padStart(8)}  ${name}`);
} finally {
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
