// Interleaved A/B of production builds on the benchmark's database (load it first with
// `npm run bench` or `npm run db:bulk`): every build is served at once (an idle one costs nothing)
// and short rounds alternate between them, so a machine whose speed drifts (other tenants, heat)
// moves every build alike. Prints, per path and concurrency, the median of the rounds' p50 and of
// the server's CPU per request (user + system of its process tree, from /proc: the figure that
// a noisy machine disturbs least).
//
//   npx tsx --conditions=react-server scripts/bench/ab.ts [--seconds 2] [--rounds 5] [--warmup 1]
//       [--connections 1,10] [--paths /subscribers,/branches,/api/v1/subscribers] [--env NAME=VALUE]…
//       [--as staff|admin] [--database console_bench] [--bearer] [--accept-language ar]
//       [--floor PROCESSES[::NODE-FLAGS]] DIR[::NODE-FLAGS]…
//
// --bearer: the API paths are asked with an API token of the bench user (its lookup and its
// requests a minute are counted per request) instead of the session.
// --accept-language: sent with every request (the bench user chose no language, so it decides the
// page's language; a build without languages answers in English).
// Besides the medians, each build after the first gets the median of its round-by-round ratios to
// the first build (the rounds are back to back, so a drift of the machine cancels out of them).
// `DIR::--max-semi-space-size=32` serves DIR with that Node flag (flags separated by spaces).
// --floor N: the framework floor (bench/framework-floor, built as `npm run bench` builds it) in N
// processes sharing its port is measured last, beside the builds: each path as the floor's route or
// page running that path's statements (FLOOR_PATHS), no session. What no page in this stack beats.
// `--floor 1::--cpu-prof --cpu-prof-dir=/tmp/floor` profiles it as a DIR's flags profile a build.
//
// DIR: a folder holding a production build (`.next`) of some version of the console, with its
// node_modules (`git worktree add /tmp/before <commit> && cp -al node_modules /tmp/before/ &&
// (cd /tmp/before && npm run db:generate && npx next build)`). A build from before server.ts is
// served with `next start`. Linux only (/proc).
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { newApiToken, secretHash } from "@/lib/auth/secrets";
import { openDatabase } from "@/lib/db/client";
import { BENCH_USERS, resetBenchPassword } from "@/tools/seed/bulk";
import { bulkTarget } from "../bulk-load";
import { ensureBuild, FRAMEWORK_FLOOR } from "./build";
import { requestSql } from "./floor";
import { loadHttp } from "./load";
import { kB, pageWeight } from "./page-weight";
import { SCENARIOS } from "./scenarios";
import { signIn, startServer, type Server } from "./server";

const { values: args, positionals: dirs } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: "string", default: "2" },
    rounds: { type: "string", default: "5" },
    warmup: { type: "string", default: "1" },
    connections: { type: "string", default: "1,10" },
    paths: { type: "string", default: "/subscribers,/branches,/api/v1/subscribers" },
    env: { type: "string", multiple: true, default: [] },
    as: { type: "string", default: "staff" }, // the bench user whose session asks: /users and /audit are the admin's
    // A copy of the bench database (`CREATE DATABASE x TEMPLATE console_bench`): the run resets the bench user's password.
    database: { type: "string", default: "console_bench" },
    bearer: { type: "boolean", default: false },
    "accept-language": { type: "string" },
    floor: { type: "string" },
  },
});
if (dirs.length === 0) throw new Error("Name at least one folder holding a production build.");
const seconds = Number(args.seconds);
// `--env NAME=VALUE` (repeatable) for every build: `--env HEAVY_REQUESTS_PER_USER=10` lifts the
// per-user limit of heavy lists, which one bench user at ten connections otherwise meets by design.
const extraEnv = Object.fromEntries(args.env.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
const rounds = Number(args.rounds);
const acceptLanguage = args["accept-language"];
const warmup = Number(args.warmup);
/** `WHAT::NODE-FLAGS` (a build's folder, the floor's processes): what, and the Node flags to serve it with. */
const withFlags = (argument: string) => {
  const [what, flags = ""] = argument.split("::");
  return { what: what!, flags: flags.split(" ").filter(Boolean), label: flags ? ` ${flags}` : "" };
};
const builds = dirs.map((d) => {
  const { what, flags, label } = withFlags(d);
  return { dir: path.resolve(what), flags, label: `${path.basename(path.resolve(what))}${label}` };
});
const floorArgument = args.floor ? withFlags(args.floor) : null;

/** CPU seconds (user + system) of a process and its descendants. */
function cpuOfTree(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  let total = (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
    for (const child of children ? children.split(" ") : []) total += cpuOfTree(Number(child));
  }
  return total;
}

/** Each path's stand-in on the framework floor: its route or page running the same statements. */
const FLOOR_PATHS: Record<string, { scenario: string; target: "api" | "html"; path: string }> = {
  "/branches": { scenario: "branches", target: "html", path: "/sql/branches" },
  "/api/v1/branches": { scenario: "branches", target: "api", path: "/api/sql/branches" },
  "/subscribers": { scenario: "first-page", target: "html", path: "/sql/first-page" },
  "/api/v1/subscribers": { scenario: "first-page", target: "api", path: "/api/sql/first-page" },
  "/login": { scenario: "empty", target: "html", path: "/page" },
};
const paths = args.paths.split(",");
if (args.floor && paths.some((p) => !FLOOR_PATHS[p])) throw new Error(`--floor measures only ${Object.keys(FLOOR_PATHS).join(", ")}.`);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const target = bulkTarget({ subscribers: 1_000_000, database: args.database });
if (target.kind !== "postgres") throw new Error("The A/B runs on the PostgreSQL bench database.");
const database = await openDatabase(target);
const benchUser = BENCH_USERS.find((u) => u.role === args.as);
if (!benchUser) throw new Error(`--as takes one of: ${BENCH_USERS.map((u) => u.role).join(", ")}`);
const password = await resetBenchPassword(database, benchUser.email);
// Its limit lifted (TOKEN_REQUESTS_PER_MINUTE below): every request is counted, none refused.
const bearer = args.bearer ? newApiToken() : null;
if (bearer) {
  await database.prisma.apiToken.create({
    data: { user: { connect: { email: benchUser.email } }, name: `ab ${Date.now()}`, scope: "read", token_hash: secretHash(bearer), expires_at: new Date(Date.now() + 86_400_000) },
  });
}
const benchUserId = (await database.prisma.user.findUniqueOrThrow({ where: { email: benchUser.email }, select: { id: true } })).id;
await database.close();

const servers: Server[] = [];
let floor: Server | null = null;
try {
  for (const build of builds) {
    servers.push(await startServer(build.dir, { DATABASE_URL: target.url, DATABASE_POOL_SIZE: "10", TOKEN_REQUESTS_PER_MINUTE: "100000000", ...extraEnv }, build.flags));
  }
  // One by one: sign-ins sent at once for the same account take turns and may be refused (lib/auth/throttle.ts).
  const cookies: string[] = [];
  for (const s of servers) cookies.push(await signIn(s.url, benchUser.email, password));
  floor = floorArgument ? await startFloor(Number(floorArgument.what), floorArgument.flags, target.url, benchUserId) : null;
  // Each build's page weight first: a page's figures depend on what it sends as much as on its time.
  for (const [i, s] of servers.entries()) {
    const w = await pageWeight(s.url, "/subscribers", cookies[i]!);
    console.log(`${builds[i]!.label}: /subscribers JavaScript ${kB(w.jsGzip)} gzipped, HTML ${kB(w.htmlBytes)} (${kB(w.htmlGzip)} gzipped)`);
  }
  // The floor is measured as one more build, last: its path stands in for the console's.
  const measured = floor ? [...servers, floor] : servers;
  const labels = [...builds.map((b) => b.label), ...(floorArgument ? [`framework floor ×${floorArgument.what}`] : [])];
  for (const p of paths) {
    for (const connections of args.connections.split(",").map(Number)) {
      const p50s: number[][] = measured.map(() => []);
      const cpu: number[][] = measured.map(() => []);
      const rates: number[][] = measured.map(() => []);
      const failures = measured.map(() => new Map<number, number>());
      const authorization = bearer && p.startsWith("/api/") ? `Bearer ${bearer}` : undefined;
      // /login is measured as the signed-out visitor it is for (it sends a signed-in one on).
      const ask = (i: number) =>
        i === servers.length
          ? { url: `${floor!.url}${FLOOR_PATHS[p]!.path}`, cookie: "" }
          : { url: `${servers[i]!.url}${p}`, cookie: authorization || p === "/login" ? "" : cookies[i]!, authorization };
      for (const i of measured.keys()) await loadHttp({ ...ask(i), acceptLanguage, connections, seconds: warmup });
      for (let r = 0; r < rounds; r++) {
        // Every other round in reverse order (A B, B A, …): neither build always runs first.
        const order = measured.map((_, i) => i);
        if (r % 2) order.reverse();
        for (const i of order) {
          const s = measured[i]!;
          const before = cpuOfTree(s.pid);
          const sample = await loadHttp({ ...ask(i), acceptLanguage, connections, seconds, failures: failures[i] });
          p50s[i]!.push(sample.p50);
          rates[i]!.push(sample.requests / seconds);
          cpu[i]!.push(((cpuOfTree(s.pid) - before) * 1000) / Math.max(1, sample.requests));
        }
      }
      const ratio = (values: number[][], i: number) => median(values[i]!.map((v, r) => v / values[0]![r]!));
      const cells = labels.map(
        (label, i) =>
          `${label}: p50 ${median(p50s[i]!).toFixed(1)} ms, ${median(rates[i]!).toFixed(0)}/s, CPU ${median(cpu[i]!).toFixed(2)} ms/request${i ? ` (×${ratio(p50s, i).toFixed(3)}, ×${ratio(rates, i).toFixed(3)}/s, CPU ×${ratio(cpu, i).toFixed(3)})` : ""}`,
      );
      console.log(`${p} ×${connections}  ${cells.join("  |  ")}`);
      // An answer that is not 2xx is not counted as a request: say so, or the CPU per request misleads.
      for (const [i, f] of failures.entries()) {
        if (f.size) console.log(`  ${labels[i]}: not 2xx: ${[...f].map(([status, n]) => `${n} × ${status || "no answer"}`).join(", ")}`);
      }
    }
  }
} finally {
  for (const s of servers) await s.stop();
  await floor?.stop();
}

/** bench/framework-floor in `processes` processes, with the statements of FLOOR_PATHS' scenarios. */
async function startFloor(processes: number, flags: string[], url: string, userId: number): Promise<Server> {
  const build = ensureBuild(process.cwd(), FRAMEWORK_FLOOR);
  const file = path.join(build.dir, "statements.json");
  const statements = Object.fromEntries(
    SCENARIOS.filter((s) => paths.some((p) => FLOOR_PATHS[p]!.scenario === s.id)).map((s) => [
      s.id,
      { api: requestSql(s, "api", userId), html: requestSql(s, "html", userId) },
    ]),
  );
  fs.writeFileSync(file, JSON.stringify(statements));
  const env = { DATABASE_URL: url, FLOOR_STATEMENTS: file, FLOOR_POOL_SIZE: "10", WEB_CONCURRENCY: String(processes) };
  return startServer(build.dir, env, flags, "/api/empty");
}
