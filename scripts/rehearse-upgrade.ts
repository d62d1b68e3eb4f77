// `npm run rehearse:upgrade`: a rolling upgrade across a migration, rehearsed on this machine
// (docs/deployment.md, Upgrading). Two releases (today's sources, and a change that adds
// branches.code with a backfill and reads it: scripts/rehearse-upgrade/builds.ts), two web
// instances behind nginx and a job worker, on PostgreSQL and an S3-compatible bucket. Under a load
// of reads, writes, server actions and navigations from pages loaded on the old release, with an
// export and an import in flight: the migration, then each web instance replaced in turn, then
// the worker. It reports every request's outcome and fails (exit 1) on any failed request,
// connection reset, server action applied other than once, or job not finished exactly once.
//
// Needs TEST_DATABASE_URL (or REHEARSAL_DATABASE_URL: a PostgreSQL server where it may create a
// database) and nginx. `--reuse` keeps the two builds of an earlier run (.data/rehearsal/).
// Ports: REHEARSAL_PORT (default 3300) for nginx and the four after it. Not run in CI (its time).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { hashPassword } from "@/lib/auth/password";
import { toolEnv } from "@/tools/env";
import { applyMigrations } from "@/tools/migrate";
import { documentedNginxConfig, nginxBinary, testNginxConfig } from "@/tools/nginx";
import { seedSubscribers } from "../tests/helpers/export-data";
import { createTestDatabase } from "../tests/helpers/postgres";
import { s3Env, startS3Server } from "../tests/helpers/s3-server";
import { CHANGE_MIGRATION, keepPreviousStatic, nextBuild, prepareRelease } from "./rehearse-upgrade/builds";

const root = process.cwd();
const base = path.join(root, ".data", "rehearsal");
const reuse = process.argv.includes("--reuse");
const settings = toolEnv(["REHEARSAL_DATABASE_URL", "REHEARSAL_PORT", "TEST_DATABASE_URL"]);
const databaseServer = settings.REHEARSAL_DATABASE_URL ?? settings.TEST_DATABASE_URL;
const firstPort = settings.REHEARSAL_PORT;
const PORTS = { nginx: firstPort, web: [firstPort + 1, firstPort + 2], s3: firstPort + 3 };
const SUBSCRIBERS = 60_000;
const USERS = { admin: "admin@rehearsal.test", staff: ["export1@rehearsal.test", "export2@rehearsal.test"] };
const PASSWORD = "rehearsal-password-123";

const say = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- requests, each with its outcome --------------------------------------------------------

type Outcome = { kind: string; status: number | "reset" | "error"; ok: boolean; phase: string; detail?: string };
const outcomes: Outcome[] = [];
let phase = "before";

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };
// A connection per request: `nginx -s reload` closes the kept-alive connections of clients between
// two requests, which a browser retries on a new one and Node's client reports as a reset.
const agent = new http.Agent({ keepAlive: false, maxSockets: 64 });

function request(target: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: PORTS.nginx, method: init.method ?? "GET", path: target, agent, headers: { host: `127.0.0.1:${PORTS.nginx}`, ...init.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

/** A request of the load, recorded with its outcome; `judge` says whether its answer is right. */
async function recorded(kind: string, run: () => Promise<Answer>, judge: (a: Answer) => boolean | string): Promise<Answer | null> {
  try {
    const answer = await run();
    const verdict = judge(answer);
    outcomes.push({ kind, status: answer.status, ok: verdict === true, phase, detail: verdict === true ? undefined : `${verdict === false ? "" : verdict} ${answer.body.slice(0, 200)}` });
    return answer;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    outcomes.push({ kind, status: code === "ECONNRESET" ? "reset" : "error", ok: false, phase, detail: String(error) });
    return null;
  }
}

class Session {
  cookie = "";
  constructor(readonly email: string) {}
  headers(extra: Record<string, string> = {}) {
    return { cookie: this.cookie, origin: `http://127.0.0.1:${PORTS.nginx}`, ...extra };
  }
  keep(answer: Answer) {
    const jar = new Map(this.cookie.split("; ").filter(Boolean).map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)] as const));
    for (const line of answer.headers["set-cookie"] ?? []) {
      const pair = line.split(";")[0]!;
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    this.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  async signIn() {
    const csrf = await request("/api/auth/csrf");
    this.keep(csrf);
    const token = (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken;
    const answer = await request("/api/auth/callback/credentials", {
      method: "POST",
      headers: this.headers({ "content-type": "application/x-www-form-urlencoded" }),
      body: new URLSearchParams({ email: this.email, password: PASSWORD, csrfToken: token, json: "true" }).toString(),
    });
    this.keep(answer);
    if (answer.status !== 200 || !this.cookie.includes("session-token")) throw new Error(`${this.email} could not sign in: ${answer.status} ${answer.body.slice(0, 200)}`);
  }
  json(target: string, method: string, body: unknown) {
    return request(target, { method, headers: this.headers({ "content-type": "application/json" }), body: JSON.stringify(body) });
  }
}

// ---- processes --------------------------------------------------------------------------------

type Proc = { child: ChildProcess; output: () => string; exited: Promise<number | null>; name: string };

function spawnIn(name: string, dir: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, args, { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited, name };
}

async function until<T>(probe: () => Promise<T | null | undefined | false>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

const direct = (port: number, target: string) =>
  new Promise<number>((resolve, reject) => {
    http.get({ host: "127.0.0.1", port, path: target, agent: false }, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on("error", reject);
  });

async function startWeb(release: string, port: number, env: Record<string, string>): Promise<Proc> {
  const web = spawnIn(`web :${port} (${path.basename(release)})`, release, ["--import", "tsx/esm", "server.ts"], { ...env, HOST: "127.0.0.1", PORT: String(port) });
  await until(async () => web.child.exitCode === null && (await direct(port, "/api/health/ready")) === 200, 120_000, `${web.name} to be ready\n${web.output()}`);
  return web;
}

const startWorker = (release: string, env: Record<string, string>) =>
  spawnIn(`worker (${path.basename(release)})`, release, ["--conditions=react-server", "--import", "tsx", "scripts/worker.ts"], env);

// ---- nginx, whose upstream list is changed and reloaded during the roll ---------------------

function nginx() {
  const binary = nginxBinary();
  if (!binary) throw new Error("nginx is not installed");
  const dir = fs.mkdtempSync(path.join(base, "nginx-"));
  fs.chmodSync(dir, 0o755);
  const temp = path.join(dir, "temp");
  fs.mkdirSync(temp, { mode: 0o777 });
  fs.chmodSync(temp, 0o777);
  const conf = path.join(dir, "nginx.conf");
  const upstreams = PORTS.web.map((p) => `127.0.0.1:${p}`);
  const write = (down: string[]) => {
    let block = testNginxConfig(documentedNginxConfig(), PORTS.nginx, upstreams);
    for (const u of down) block = block.replace(new RegExp(`(server ${u.replaceAll(".", "\\.")} [^;]*);`), "$1 down;");
    fs.writeFileSync(
      conf,
      `worker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nevents { worker_connections 512; }\nhttp {\n  access_log ${dir}/access.log;\n  client_body_temp_path ${temp}/body;\n  proxy_temp_path ${temp}/proxy;\n  fastcgi_temp_path ${temp}/fastcgi;\n  uwsgi_temp_path ${temp}/uwsgi;\n  scgi_temp_path ${temp}/scgi;\n${block}\n}\n`,
    );
  };
  write([]);
  const child = spawn(binary, ["-p", dir, "-c", conf, "-e", path.join(dir, "error.log"), "-g", "daemon off;"], { stdio: "ignore" });
  return {
    dir,
    /** The instances named are marked `down`; nginx's old workers finish what they hold. */
    async route(down: string[]) {
      write(down);
      const r = spawnSync(binary, ["-p", dir, "-c", conf, "-e", path.join(dir, "error.log"), "-s", "reload"], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`nginx -s reload failed: ${r.stderr}`);
      await sleep(1_000);
    },
    errors: () => (fs.existsSync(path.join(dir, "error.log")) ? fs.readFileSync(path.join(dir, "error.log"), "utf8") : ""),
    stop: () => child.kill("SIGTERM"),
  };
}

// ---- the rehearsal ----------------------------------------------------------------------------

async function main() {
  if (!databaseServer) throw new Error("Set TEST_DATABASE_URL (or REHEARSAL_DATABASE_URL): a PostgreSQL server where the rehearsal may create a database.");
  fs.mkdirSync(base, { recursive: true });
  const releases = { old: path.join(base, "old"), new: path.join(base, "new") };
  const keyFile = path.join(base, "actions-key");
  const built = (dir: string) => fs.existsSync(path.join(dir, ".next", "BUILD_ID"));
  if (!reuse || !built(releases.old) || !built(releases.new) || !fs.existsSync(keyFile)) {
    // One actions key for both builds and every instance (docs/deployment.md).
    const key = crypto.randomBytes(32).toString("base64");
    fs.writeFileSync(keyFile, key);
    say("building the two releases (today's, and today's with the change)…");
    prepareRelease(root, releases.old, false);
    prepareRelease(root, releases.new, true);
    await Promise.all([nextBuild(releases.old, key, path.join(base, "old.log")), nextBuild(releases.new, key, path.join(base, "new.log"))]);
  }
  const key = fs.readFileSync(keyFile, "utf8").trim();
  const buildIds = { old: fs.readFileSync(path.join(releases.old, ".next", "BUILD_ID"), "utf8"), new: fs.readFileSync(path.join(releases.new, ".next", "BUILD_ID"), "utf8") };
  if (buildIds.old === buildIds.new) throw new Error("the two releases have one build id: the change did not apply");
  // The new release serves the old one's static files too, for pages still open on it.
  keepPreviousStatic(releases.old, releases.new);

  const database = await createTestDatabase(databaseServer);
  const bucket = await startS3Server({ port: PORTS.s3 });
  const procs: Proc[] = [];
  let proxy: ReturnType<typeof nginx> | undefined;
  try {
    await applyMigrations(database.url, { schemaPath: path.join(releases.old, "prisma", "schema.prisma"), migrationsDir: path.join(releases.old, "prisma", "migrations") });
    const sql = new pg.Pool({ connectionString: database.url, max: 2 });
    await seedSubscribers((text) => sql.query(text), SUBSCRIBERS);
    await sql.query(`INSERT INTO branches (name, updated_at) SELECT 'Branch ' || g, now() FROM generate_series(1, 20) g`);
    const hash = await hashPassword(PASSWORD);
    await sql.query(`INSERT INTO users (email, name, role, password_hash, updated_at) VALUES ($1, 'Admin', 'admin', $2, now())`, [USERS.admin, hash]);
    for (const email of USERS.staff) await sql.query(`INSERT INTO users (email, name, role, password_hash, updated_at) VALUES ($1, 'Exporter', 'staff', $2, now())`, [email, hash]);

    const env: Record<string, string> = {
      NODE_ENV: "production",
      DATABASE_URL: database.url,
      DATABASE_SENTINEL: "off",
      NEXTAUTH_SECRET: crypto.randomBytes(32).toString("base64url"),
      NEXTAUTH_URL: `http://127.0.0.1:${PORTS.nginx}`,
      NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: key,
      TRUST_PROXY: "1",
      WEB_CONCURRENCY: "1",
      JOB_WORKER: "off",
      JOB_POLL_SECONDS: "1",
      EXPORT_BATCH_SIZE: "2000",
      LOG_LEVEL: "warn",
      SHUTDOWN_TIMEOUT_SECONDS: "30",
      ...s3Env(bucket),
    };
    say("starting the old release: two web instances, a worker, nginx");
    const webs = await Promise.all(PORTS.web.map((port) => startWeb(releases.old, port, env)));
    procs.push(...webs);
    let worker = startWorker(releases.old, env);
    procs.push(worker);
    proxy = nginx();
    await until(async () => (await request("/api/health/ready")).status === 200, 10_000, "nginx");

    const admin = new Session(USERS.admin);
    await admin.signIn();
    const exporters = USERS.staff.map((e) => new Session(e));
    for (const s of exporters) await s.signIn();

    // Pages opened on the old release: their deployment id, scripts, and a server action's id.
    const oldPage = await request("/branches/new", { headers: admin.headers() });
    const oldDeployment = /data-dpl-id="([^"]+)"/.exec(oldPage.body)?.[1];
    const oldScripts = [...oldPage.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
    const manifest = JSON.parse(fs.readFileSync(path.join(releases.old, ".next/server/server-reference-manifest.json"), "utf8")) as { node: Record<string, { exportedName?: string }> };
    const createBranchId = Object.entries(manifest.node).find(([, e]) => e.exportedName === "createBranchAction")?.[0];
    if (!oldDeployment || oldScripts.length === 0 || !createBranchId) throw new Error("the old page has no deployment id, scripts or createBranchAction");
    say(`old pages: deployment ${oldDeployment}, ${oldScripts.length} scripts`);

    // ---- the load ----
    let running = true;
    const branchIds = (await sql.query<{ id: number }>(`SELECT id FROM branches ORDER BY id`)).rows.map((r) => r.id);
    const actionNames: { name: string; outcome: "applied" | "reload" }[] = [];
    const written: string[] = [];
    let n = 0;
    const reads = async () => {
      while (running) {
        const id = branchIds[n++ % branchIds.length]!;
        await recorded("read: API branch", () => request(`/api/v1/branches/${id}`, { headers: admin.headers() }), (a) => a.status === 200);
        await recorded("read: list page", () => request(`/subscribers?page=${1 + (n % 5)}`, { headers: admin.headers() }), (a) => a.status === 200);
        await recorded("read: API list", () => request(`/api/v1/subscribers?page=${1 + (n % 5)}`, { headers: admin.headers() }), (a) => a.status === 200);
      }
    };
    const writes = async () => {
      while (running) {
        const name = `Rehearsal ${crypto.randomUUID().slice(0, 12)}`;
        const created = await recorded("write: API create", () => admin.json("/api/v1/branches", "POST", { name }), (a) => a.status === 201);
        if (created?.status === 201) {
          written.push(name);
          const id = (JSON.parse(created.body) as { id: number }).id;
          await recorded("write: API rename", () => admin.json(`/api/v1/branches/${id}`, "PATCH", { name: `${name} renamed` }), (a) => a.status === 200);
        }
      }
    };
    // What a page loaded on the old release sends: its actions, its navigations, its scripts.
    const oldPages = async () => {
      while (running) {
        const name = `Action ${crypto.randomUUID().slice(0, 12)}`;
        const answer = await recorded(
          "old page: server action",
          () =>
            request("/branches/1/edit", {
              method: "POST",
              headers: admin.headers({ "next-action": createBranchId, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", "x-deployment-id": oldDeployment }),
              body: JSON.stringify([{ name }]),
            }),
          (a) =>
            // Applied, or Next's answer to an action it will not run for this page's build, on
            // which the page reloads itself.
            (a.status === 200 && a.body.includes("created.")) || (a.status < 500 && a.headers["x-nextjs-action-not-found"] === "1") || "neither applied nor a reload",
        );
        if (answer && outcomes.at(-1)?.ok) {
          const outcome = answer.status === 200 && answer.body.includes("created.") ? "applied" : "reload";
          actionNames.push({ name, outcome });
          outcomes.at(-1)!.kind = `old page: server action, ${outcome}`;
        }
        // A client-side navigation: its payload, or a redirect the router follows.
        await recorded(
          "old page: navigation",
          async () => {
            const headers = admin.headers({ rsc: "1", "x-deployment-id": oldDeployment });
            const first = await request("/branches", { headers });
            const location = first.headers.location;
            return first.status >= 300 && first.status < 400 && location?.startsWith("/") ? request(location, { headers }) : first;
          },
          (a) => a.status === 200,
        );
        await recorded("old page: script", () => request(oldScripts[n % oldScripts.length]!), (a) => a.status === 200);
      }
    };
    const importCsv = async () => {
      const template = (await request("/api/v1/subscribers/imports/template", { headers: admin.headers() })).body.trim().split(",");
      const value = (h: string, i: number) =>
        /first/i.test(h) ? `Imported${i}` : /last/i.test(h) ? "Rehearsal" : /mail/i.test(h) ? `imported${i}.${crypto.randomUUID().slice(0, 6)}@rehearsal.test` : /mobile|phone/i.test(h) ? `+4478${String(10_000_000 + i).slice(-8)}` : /status/i.test(h) ? "active" : "";
      return [template.join(","), ...Array.from({ length: 3_000 }, (_, i) => template.map((h) => value(h, i)).join(","))].join("\n");
    };
    const jobs: { kind: "export" | "import"; session: Session; id?: string; rows: number; phase: string }[] = [];
    const startJobs = async (session: Session) => {
      const exported = await recorded("job: request export", () => session.json("/api/v1/subscribers/export", "POST", {}), (a) => a.status === 202);
      const queued = exported?.status === 202 ? await sql.query<{ id: string }>(`SELECT e.id FROM subscriber_exports e JOIN users u ON u.id = e.user_id WHERE u.email = $1 AND e.status = 'in_queue'`, [session.email]) : null;
      jobs.push({ kind: "export", session, rows: SUBSCRIBERS, id: queued?.rows[0]?.id, phase });
      const boundary = `----rehearsal${crypto.randomUUID()}`;
      const body = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="people.csv"\r\nContent-Type: text/csv\r\n\r\n${await importCsv()}\r\n--${boundary}--\r\n`);
      const imported = await recorded("job: start import", () => request("/api/v1/subscribers/imports", { method: "POST", headers: session.headers({ "content-type": `multipart/form-data; boundary=${boundary}` }), body }), (a) => a.status === 202);
      jobs.push({ kind: "import", session, rows: 3_000, id: imported ? (JSON.parse(imported.body) as { id?: string }).id : undefined, phase });
    };

    const load = [reads(), reads(), writes(), oldPages(), oldPages()];
    say("load running; an export and an import queued");
    await startJobs(exporters[0]!);
    await sleep(3_000);

    phase = "migration";
    const applied = await applyMigrations(database.url, { schemaPath: path.join(releases.new, "prisma", "schema.prisma"), migrationsDir: path.join(releases.new, "prisma", "migrations") });
    if (!applied.includes(CHANGE_MIGRATION)) throw new Error(`the new release's migration was not applied: ${applied.join(", ")}`);
    say(`migration ${CHANGE_MIGRATION} applied under load`);
    await sleep(3_000);

    for (const [i, port] of PORTS.web.entries()) {
      phase = `web ${i + 1}`;
      const upstream = `127.0.0.1:${port}`;
      await proxy.route([upstream]); // out of the balancer first, then stopped
      const old = webs[i]!;
      old.child.kill("SIGTERM");
      const code = await old.exited;
      if (code !== 0) throw new Error(`${old.name} exited ${code}:\n${old.output().slice(-2000)}`);
      const fresh = await startWeb(releases.new, port, env);
      procs.push(fresh);
      await proxy.route([]);
      say(`web instance ${i + 1} replaced by the new release`);
      await sleep(3_000);
    }

    phase = "worker";
    await startJobs(exporters[1]!);
    await until(async () => (await sql.query(`SELECT 1 FROM pgboss.job WHERE name = 'console-job' AND state = 'active'`)).rowCount, 30_000, "a job to be running");
    const next = startWorker(releases.new, env);
    procs.push(next);
    worker.child.kill("SIGTERM");
    const workerCode = await worker.exited;
    if (workerCode !== 0) throw new Error(`the old worker exited ${workerCode}:\n${worker.output().slice(-2000)}`);
    worker = next;
    say("worker replaced by the new release");

    phase = "after";
    await sleep(4_000);
    running = false;
    await Promise.all(load);

    // ---- what the rehearsal must show ----
    say("load stopped; waiting for the jobs");
    const jobResults: string[] = [];
    for (const job of jobs) {
      if (!job.id) {
        outcomes.push({ kind: `job: ${job.kind} finished once`, status: 500, ok: false, phase: "after", detail: "never queued" });
        continue;
      }
      const statusPath = job.kind === "export" ? "/api/v1/subscribers/export" : `/api/v1/subscribers/imports/${job.id}`;
      const done = await until(
        async () => {
          const body = JSON.parse((await request(statusPath, { headers: job.session.headers() })).body) as Record<string, unknown>;
          const status = job.kind === "export" ? body.downloadable_file_status : body.status;
          return status === "completed" || status === "failed" ? body : null;
        },
        240_000,
        `the ${job.kind} of ${job.session.email}`,
      );
      const row = (await sql.query<{ state: string; retry_count: number; n: number }>(`SELECT state::text AS state, retry_count, (SELECT count(*)::int FROM pgboss.job j2 WHERE j2.data->>'id' = $1) AS n FROM pgboss.job WHERE data->>'id' = $1`, [job.id])).rows[0];
      // An export's rows: the seeded ones, and those of an import finished before it started.
      const ok = job.kind === "export" ? done.downloadable_file_status === "completed" && Number(done.total_rows) >= job.rows : done.status === "completed";
      if (job.kind === "export") {
        await recorded("job: download export", () => request(String(done.downloadable_file), { headers: job.session.headers() }), (a) => a.status === 200 && a.body.trim().split("\n").length > Number(done.total_rows));
      }
      jobResults.push(`${job.kind} of ${job.session.email} (queued ${job.phase === "before" ? "before the migration" : "before the worker's replacement"}): ${ok ? "finished" : "NOT finished"}, ${done.total_rows} rows, job ${row?.state} after ${row?.retry_count} retries, ${row?.n} job row(s)`);
      outcomes.push({ kind: `job: ${job.kind} finished once`, status: ok && row?.state === "completed" && row.n === 1 ? 200 : 500, ok: Boolean(ok && row?.state === "completed" && row.n === 1), phase: "after" });
    }
    const importedRows = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers WHERE last_name = 'Rehearsal'`)).rows[0]!.n;
    const importOk = importedRows === 3_000 * jobs.filter((j) => j.kind === "import" && j.id).length;
    outcomes.push({ kind: "job: imports' rows once", status: importOk ? 200 : 500, ok: importOk, phase: "after", detail: `${importedRows} rows` });

    const applied1 = actionNames.filter((a) => a.outcome === "applied").map((a) => a.name);
    const counts = (await sql.query<{ name: string; n: number }>(`SELECT name, count(*)::int AS n FROM branches WHERE name = ANY($1) GROUP BY name`, [actionNames.map((a) => a.name)])).rows;
    const countOf = new Map(counts.map((c) => [c.name, c.n]));
    const actionsOnce = actionNames.every((a) => (countOf.get(a.name) ?? 0) === (a.outcome === "applied" ? 1 : 0));
    outcomes.push({ kind: "server actions applied once or reload", status: actionsOnce ? 200 : 500, ok: actionsOnce, phase: "after", detail: `${applied1.length} applied, ${actionNames.length - applied1.length} reload` });
    const writtenOnce = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM branches WHERE name = ANY($1)`, [written.map((w) => `${w} renamed`).concat(written)])).rows[0]!.n === written.length;
    outcomes.push({ kind: "API writes stored once", status: writtenOnce ? 200 : 500, ok: writtenOnce, phase: "after" });
    const code = JSON.parse((await request(`/api/v1/branches/${branchIds[0]}`, { headers: admin.headers() })).body) as { code?: unknown };
    outcomes.push({ kind: "new release reads the new column", status: typeof code.code === "string" ? 200 : 500, ok: typeof code.code === "string", phase: "after", detail: JSON.stringify(code) });

    // ---- the report ----
    const kinds = [...new Set(outcomes.map((o) => o.kind))];
    const failed = outcomes.filter((o) => !o.ok);
    const resets = outcomes.filter((o) => o.status === "reset").length;
    const table = [
      "| request | total | ok | failed |",
      "|---|--:|--:|--:|",
      ...kinds.map((k) => {
        const of = outcomes.filter((o) => o.kind === k);
        return `| ${k} | ${of.length} | ${of.filter((o) => o.ok).length} | ${of.filter((o) => !o.ok).length} |`;
      }),
    ].join("\n");
    const summary = [
      `Rolling upgrade rehearsal, ${new Date().toISOString().slice(0, 16)}Z: ${buildIds.old} → ${buildIds.new}`,
      `${outcomes.length} outcomes; ${failed.length} failed; ${resets} connection resets; server actions from old pages: ${applied1.length} applied once, ${actionNames.length - applied1.length} answered with a reload`,
      ...jobResults,
      "",
      table,
    ].join("\n");
    fs.writeFileSync(path.join(base, "report.md"), `${summary}\n`);
    console.log(`\n${summary}\n`);
    if (failed.length) {
      console.log("Failures:");
      for (const f of failed.slice(0, 60)) console.log(`- [${f.phase}] ${f.kind}: ${f.status} ${f.detail ?? ""}`);
      const nginxErrors = proxy.errors().trim();
      if (nginxErrors) console.log(`nginx's error log:\n${nginxErrors.slice(-3000)}`);
    }
    await sql.end();
    process.exitCode = failed.length ? 1 : 0;
  } finally {
    proxy?.stop();
    for (const p of procs) if (p.child.exitCode === null) p.child.kill("SIGKILL");
    await Promise.all(procs.map((p) => p.exited));
    agent.destroy();
    await bucket.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
