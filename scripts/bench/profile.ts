// CPU profiles of production builds under the same load, summed by where the time goes. Every
// build is served at once with `--cpu-prof`, warmed up, then loaded in short rounds that
// alternate between the builds (as scripts/bench/ab.ts does: a machine whose speed drifts moves
// every build alike); only the samples inside a build's own rounds count. Prints, per build, the
// main thread's busy time per request by module (the console's sources, each package, Node's
// internals, GC) and the heaviest functions, named through the bundles' source maps (React's
// and Next's own sources included), so that two builds' costs can be compared line by line.
// With `--json PREFIX`, each build's figures go to PREFIX-<build>.json for a diff.
//
//   npx tsx --conditions=react-server scripts/bench/profile.ts [--seconds 15] [--rounds 10]
//       [--warmup 8] [--connections 1] [--path /subscribers] [--interval 1000] [--top 40]
//       [--json PREFIX] DIR…
//
// DIR: a folder with a production build, as for scripts/bench/ab.ts. Runs on the PostgreSQL
// bench database (`npm run db:bulk`), one web process per build. What a profile cannot see: the other threads (GC helpers,
// zlib, crypto); ab.ts's CPU per request counts them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openDatabase } from "@/lib/db/client";
import { BENCH_USERS, resetBenchPassword } from "@/tools/seed/bulk";
import { bulkTarget } from "../bulk-load";
import { loadHttp } from "./load";
import { signIn, startServer } from "./server";

const { values: args, positionals: dirs } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: "string", default: "15" },
    rounds: { type: "string", default: "10" },
    warmup: { type: "string", default: "8" },
    connections: { type: "string", default: "1" },
    path: { type: "string", default: "/subscribers" },
    top: { type: "string", default: "40" },
    interval: { type: "string", default: "1000" },
    json: { type: "string" },
    "accept-language": { type: "string" },
  },
});
if (dirs.length === 0) throw new Error("Name at least one folder holding a production build.");

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

/** Where a frame's code comes from, as a short name. */
function moduleOf(url: string, fn: string): string {
  if (!url) return fn.startsWith("(") ? fn : "(native)";
  if (url.startsWith("node:")) return "node internals";
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)(\/dist\/compiled\/([^/]+))?/);
  if (m) return m[3] ? `${m[1]} › ${m[3]}` : m[1]!;
  if (url.includes("/.next/server/chunks/ssr/")) return "app chunk (ssr)";
  if (url.includes("/.next/server/chunks/")) return "app chunk";
  if (url.includes("/.next/server/")) return "app (.next/server)";
  return path.basename(url);
}

const maps = new Map<string, SourceMap | null>();

/** Where a frame of a bundle comes from, through the bundle's source map (`file.js.map` beside it). */
function original(url: string, line: number, column: number): string | null {
  if (!url.startsWith("file://") && !url.startsWith("/")) return null;
  const file = url.startsWith("file://") ? fileURLToPath(url) : url;
  if (!maps.has(file)) {
    let map: SourceMap | null = null;
    try {
      map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, "utf8")));
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  const entry = maps.get(file)?.findEntry(line, column) as { originalSource?: string; originalLine?: number; name?: string } | undefined;
  if (!entry?.originalSource) return null;
  const source = entry.originalSource.replace(/^.*?\/(node_modules|app|lib|components)\//, "$1/").replace(/^turbopack:\/\/\/\[project\]\//, "");
  return `${entry.name ?? ""} ${source}:${(entry.originalLine ?? 0) + 1}`;
}

function summarise(file: string, windows: [number, number][], requests: number, top: number, label: string) {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const inside = (t: number) => windows.some(([a, b]) => t >= a && t <= b);
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    if (!inside(t)) continue;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    const id = profile.samples[i]!;
    const n = byId.get(id)!;
    if (n.callFrame.functionName === "(idle)") continue;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  }
  const modules = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, us] of self) {
    const { callFrame: f } = byId.get(id)!;
    const mod = moduleOf(f.url, f.functionName);
    modules.set(mod, (modules.get(mod) ?? 0) + us);
    const key = original(f.url, f.lineNumber, f.columnNumber) ?? `${f.functionName || "(anonymous)"} ${mod}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const perRequest = (us: number) => (us / 1000 / requests).toFixed(3);
  console.log(`${label}: busy ${perRequest(total)} ms per request over ${requests} requests`);
  for (const [m, us] of [...modules].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`    ${perRequest(us).padStart(7)}  ${m}`);
  if (args.json) fs.writeFileSync(`${args.json}-${label}.json`, JSON.stringify({ requests, total, modules: [...modules], functions: [...functions] }));
  console.log("  heaviest functions:");
  for (const [f, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`    ${perRequest(us).padStart(7)}  ${f}`);
}

const target = bulkTarget({ subscribers: 1_000_000 });
if (target.kind !== "postgres") throw new Error("The profile runs on the PostgreSQL bench database.");
const database = await openDatabase(target);
const password = await resetBenchPassword(database, BENCH_USERS[1]!.email);
await database.close();

// Every build is served at once and the load alternates between them in short rounds, so that a
// machine whose speed drifts moves every build alike; only each build's own rounds count.
const now = () => Number(process.hrtime.bigint() / 1000n); // the profiles' clock: monotonic, µs
const builds = dirs.map((d) => path.resolve(d));
const servers = [];
const folders: string[] = [];
for (const dir of builds) {
  const profiles = fs.mkdtempSync(path.join(os.tmpdir(), "console-profile-"));
  folders.push(profiles);
  servers.push(await startServer(dir, { DATABASE_URL: target.url, DATABASE_POOL_SIZE: "10", WEB_CONCURRENCY: "1" }, ["--cpu-prof", `--cpu-prof-dir=${profiles}`, `--cpu-prof-interval=${args.interval}`]));
}
const cookies: string[] = [];
for (const s of servers) cookies.push(await signIn(s.url, BENCH_USERS[1]!.email, password));
const connections = Number(args.connections);
const acceptLanguage = args["accept-language"];
// /login is measured as the signed-out visitor it is for (it sends a signed-in one on).
const cookieOf = (i: number) => (args.path === "/login" ? "" : cookies[i]!);
for (const [i, s] of servers.entries()) await loadHttp({ url: `${s.url}${args.path}`, cookie: cookieOf(i), acceptLanguage, connections, seconds: Number(args.warmup) });
const windows: [number, number][][] = servers.map(() => []);
const requests = servers.map(() => 0);
const p50s: number[][] = servers.map(() => []);
const rounds = Number(args.rounds);
for (let r = 0; r < rounds; r++) {
  const order = servers.map((_, i) => i);
  if (r % 2) order.reverse();
  for (const i of order) {
    const from = now();
    const sample = await loadHttp({ url: `${servers[i]!.url}${args.path}`, cookie: cookieOf(i), acceptLanguage, connections, seconds: Number(args.seconds) / rounds });
    windows[i]!.push([from, now()]);
    requests[i] = requests[i]! + sample.requests;
    p50s[i]!.push(sample.p50);
  }
}
for (const s of servers) await s.stop();
for (const [i, dir] of builds.entries()) {
  // The main thread's profile is the largest: a server's worker threads write theirs beside it.
  const file = fs
    .readdirSync(folders[i]!)
    .map((f) => path.join(folders[i]!, f))
    .filter((f) => f.endsWith(".cpuprofile"))
    .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
  console.log(`${path.basename(dir)}: ${args.path} ×${connections}, median p50 ${[...p50s[i]!].sort((a, b) => a - b)[Math.floor(rounds / 2)]!.toFixed(1)} ms`);
  if (!file) {
    console.log("  no profile written (the server did not exit cleanly)");
    continue;
  }
  summarise(file, windows[i]!, requests[i]!, Number(args.top), path.basename(dir));
}
