// `npm run test:load`: 50 concurrent connections for 60 s against the production build (`next
// start`, which this script starts on a throwaway database of its own), signed in, over the list
// pages, the JSON lists and the export status. Prints a summary and exits non-zero on any error,
// any 4xx/5xx answer, or a growth of the server's resident memory beyond the limit between the
// end of the warm-up and the end of the run.
//
// Needs a build (`npx next build`); it does not build. Options (environment, checked by tools/env.ts):
//   LOAD_CONNECTIONS=50  LOAD_DURATION=60  LOAD_RSS_LIMIT_MB=50
//   LOAD_WARMUP=15 (seconds), LOAD_WARMUP_REQUESTS=3000: the warm-up lasts at least that long and
//     that many requests, and until resident memory settles (< 10 MB over 5 s), at most 180 s;
//     on a slow or busy machine it takes longer, so that the comparison starts from a warm server
//   LOAD_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres  runs on a fresh database of
//     that server (created and dropped here) instead of an embedded one
//   LOAD_TARGETS=/branches,/api/v1/branches  only these of the five paths
//   APP_DIR=<folder with .next>  (default: this project)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openDatabase } from "@/lib/db/client";
import { applyMigrations } from "@/tools/migrate";
import { seedDemo } from "@/tools/seed/demo";
import { toolEnv, type ToolEnv } from "@/tools/env";
import { projectRoot, rssMb, signIn, startNextServer, type NextServer } from "../tests/helpers/next-server";
import { freePort } from "../tests/helpers/pg-cluster";
import { createTestDatabase, type TestDatabase } from "../tests/helpers/postgres";

const VARIABLES = ["LOAD_CONNECTIONS", "LOAD_DURATION", "LOAD_WARMUP", "LOAD_WARMUP_REQUESTS", "LOAD_RSS_LIMIT_MB", "LOAD_DATABASE_URL", "LOAD_TARGETS"] as const;
/** The run's settings, read when it starts (main): a bad one ends it with a message naming it. */
let settings: Pick<ToolEnv, (typeof VARIABLES)[number]>;
const WARMUP_MAX = 180;
const ADMIN = { email: "admin@example.com", password: "admin-demo-pass" };

/** What a signed-in user does most: the two list pages, the JSON lists, the export status; pages 1–5 with and without a filter. */
const ALL_TARGETS = ["/subscribers", "/branches", "/api/v1/subscribers", "/api/v1/branches", "/api/v1/subscribers/export"];
/** LOAD_TARGETS=/branches,/api/v1/branches narrows the mix (to find which endpoint a problem comes from). */
const targets = () => settings.LOAD_TARGETS ?? ALL_TARGETS;

type Tally = Map<string, Map<number, number>>;

function queries(target: string, i: number): string {
  if (target.endsWith("/export")) return target;
  const page = 1 + (i % 5);
  const filter = i % 3 === 0 ? (target.includes("branches") ? "&name=a" : "&subscription_status=active") : "";
  return `${target}?page=${page}${filter}`;
}

function requestsFor(cookie: string, tally: Tally) {
  let i = 0;
  return targets().map((target) => ({
    method: "GET" as const,
    path: target,
    headers: { cookie, accept: target.startsWith("/api/") ? "application/json" : "text/html" },
    setupRequest: (request: autocannon.Request) => ({ ...request, path: queries(target, i++) }),
    onResponse: (status: number) => {
      const byStatus = tally.get(target) ?? new Map<number, number>();
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      tally.set(target, byStatus);
    },
  }));
}

function run(
  url: string,
  cookie: string,
  seconds: number,
  tally: Tally,
  title: string,
  stopWhen?: (elapsed: number, answered: number) => boolean,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, connections: settings.LOAD_CONNECTIONS, duration: seconds, timeout: 20, title, requests: requestsFor(cookie, tally) },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    let elapsed = 0;
    let answered = 0;
    instance.on("response", () => (answered += 1));
    instance.on("tick", () => {
      elapsed += 1;
      if (stopWhen?.(elapsed, answered)) instance.stop();
    });
    process.once("SIGINT", () => instance.stop());
  });
}

/** The pid that actually serves: `next start` itself, or a next-server child if it forked one. */
function serverPid(pid: number): number {
  const children = (p: number) =>
    fs.existsSync(`/proc/${p}/task/${p}/children`)
      ? fs.readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
      : [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift()!;
    const name = fs.existsSync(`/proc/${p}/cmdline`) ? fs.readFileSync(`/proc/${p}/cmdline`, "utf8") : "";
    if (name.startsWith("next-server")) return p;
    queue.push(...children(p));
  }
  return pid;
}

async function prepareDatabase(dir: string): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const base = settings.LOAD_DATABASE_URL;
  if (base) {
    const created: TestDatabase = await createTestDatabase(base);
    await applyMigrations(created.url);
    const database = await openDatabase({ kind: "postgres", url: created.url });
    try {
      await seedDemo(database.prisma);
    } finally {
      await database.close();
    }
    return { env: { DATABASE_URL: created.url }, drop: () => created.drop() };
  }
  const env = { DATABASE_URL: "", PGLITE_DIR: path.join(dir, "pglite") };
  const prep = spawnSync(process.execPath, [path.join(projectRoot, "node_modules/tsx/dist/cli.mjs"), "scripts/prepare-db.ts"], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: "inherit",
  });
  if (prep.status !== 0) throw new Error("preparing the embedded database failed");
  return { env, drop: async () => {} };
}

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

function table(rows: [string, string][]) {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join("\n");
}

async function main() {
  settings = toolEnv(VARIABLES);
  const { LOAD_CONNECTIONS: CONNECTIONS, LOAD_DURATION: DURATION, LOAD_WARMUP: WARMUP, LOAD_WARMUP_REQUESTS: WARMUP_REQUESTS, LOAD_RSS_LIMIT_MB: RSS_LIMIT_MB } = settings;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "console-load-"));
  let server: NextServer | undefined;
  let drop = async () => {};
  try {
    const database = await prepareDatabase(dir);
    drop = database.drop;
    const port = await freePort();
    server = await startNextServer({
      port,
      env: {
        ...database.env,
        NEXTAUTH_SECRET: "load-test-secret-not-for-production-0123456789",
        NEXTAUTH_URL: `http://127.0.0.1:${port}`,
        STORAGE_DIR: path.join(dir, "files"),
      },
    });
    const pid = serverPid(server.pid);
    const cookie = await signIn(server.url, ADMIN.email, ADMIN.password);
    // An export exists, so that its status has something to say.
    const requested = await fetch(`${server.url}/api/v1/subscribers/export`, { method: "POST", headers: { cookie } });
    if (requested.status !== 202) throw new Error(`requesting an export answered ${requested.status}`);

    console.log(`› Warm-up: ≥ ${WARMUP} s and ≥ ${WARMUP_REQUESTS} requests, ${CONNECTIONS} connections (server pid ${pid}, ${server.url})`);
    const warmTally: Tally = new Map();
    let previous = rssMb(pid);
    const warm = await run(server.url, cookie, WARMUP_MAX, warmTally, "warm-up", (elapsed, answered) => {
      if (elapsed % 5 !== 0) return false;
      const now = rssMb(pid);
      const settled = Math.abs(now - previous) < 10;
      previous = now;
      return elapsed >= WARMUP && answered >= WARMUP_REQUESTS && settled;
    });
    const warmSeconds = warm.duration;
    const warmRequests = warm.requests.total;
    const rssStart = rssMb(pid);

    console.log(`› Load: ${DURATION} s, ${CONNECTIONS} connections`);
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssMb(pid)), 1000);
    const tally: Tally = new Map();
    const result = await run(server.url, cookie, DURATION, tally, "load");
    clearInterval(sampler);
    const rssEnd = rssMb(pid);
    await new Promise((r) => setTimeout(r, 3000));
    const rssIdle = rssMb(pid);
    const growth = rssEnd - rssStart;

    const codes = Object.entries(result.statusCodeStats ?? {})
      .map(([code, { count }]) => `${code}×${fmt(count ?? 0)}`)
      .join(", ");
    const bad = result["4xx"] + result["5xx"] + result["1xx"] + result.errors + result.timeouts;
    console.log("\nLoad test summary");
    console.log(
      table([
        ["connections / duration", `${CONNECTIONS} / ${fmt(result.duration, 1)} s (after a ${fmt(warmSeconds, 0)} s warm-up of ${fmt(warmRequests)} requests)`],
        ["database", database.env.DATABASE_URL ? "PostgreSQL (fresh database)" : "embedded PGlite"],
        ["requests", `${fmt(result.requests.total)} (${fmt(result.requests.average, 1)} req/s average, ${fmt(result.requests.min)}–${fmt(result.requests.max)} per second)`],
        ["latency", `p50 ${fmt(result.latency.p50)} ms · p90 ${fmt(result.latency.p90)} ms · p99 ${fmt(result.latency.p99)} ms · max ${fmt(result.latency.max)} ms`],
        ["throughput", `${fmt(result.throughput.average / 1024 / 1024, 2)} MB/s`],
        ["status codes", codes || "none"],
        ["errors / timeouts", `${result.errors} / ${result.timeouts}`],
        ["server RSS", `${fmt(rssStart, 1)} MB after warm-up → ${fmt(rssEnd, 1)} MB at the end (peak ${fmt(Math.max(rssStart, ...samples), 1)} MB, ${fmt(rssIdle, 1)} MB 3 s later)`],
        ["RSS growth", `${growth >= 0 ? "+" : ""}${fmt(growth, 1)} MB (limit ${RSS_LIMIT_MB} MB)`],
      ]),
    );
    const trace = samples.filter((_, i) => (i + 1) % 10 === 0).map((mb) => fmt(mb, 0));
    console.log(`  RSS every 10 s (MB): ${trace.join(" → ")}`);
    console.log("\n  per endpoint (status × count):");
    for (const target of targets()) {
      const byStatus = [...(tally.get(target) ?? new Map()).entries()].map(([s, c]) => `${s}×${fmt(c)}`).join(", ");
      console.log(`    ${target.padEnd(28)} ${byStatus || "no answers"}`);
    }

    const failures = [
      bad > 0 ? `${bad} failed requests (4xx/5xx, errors or timeouts)` : null,
      result.requests.total === 0 ? "no request was answered" : null,
      growth > RSS_LIMIT_MB ? `resident memory grew ${fmt(growth, 1)} MB (> ${RSS_LIMIT_MB} MB)` : null,
      ...targets().filter((t) => !tally.get(t)?.size).map((t) => `${t} was never answered`),
    ].filter(Boolean);
    if (failures.length > 0) {
      console.error(`\n✗ Load test failed: ${failures.join("; ")}`);
      process.exitCode = 1;
    } else {
      console.log("\n✓ Load test passed: no errors, memory within the limit.");
    }
  } finally {
    await server?.stop();
    await drop().catch((error: unknown) => console.error("could not drop the load test database", error));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
