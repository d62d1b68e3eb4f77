import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { parse } from "csv-parse/sync";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/auth/password";
import { builtActionsKey } from "@/lib/server/actions-key";
import { applyMigrations } from "@/tools/migrate";
import { buildId } from "../../scripts/build-id.mjs";
import { builtServerActions } from "../helpers/built-app";
import { Browser, rawRequest } from "../helpers/console-server";
import { seedSubscribers } from "../helpers/export-data";
import { spawnWorker, until, type WorkerProcess } from "../helpers/export-process";
import { projectRoot, startNextServer, type NextServer } from "../helpers/next-server";
import { nginxBinary, startNginx, type Nginx } from "@/tools/nginx";
import { freePort } from "../helpers/pg-cluster";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres";
import { s3Env, startS3Server, type S3Server } from "../helpers/s3-server";
import { separateBuild, type SeparateBuild } from "../helpers/separate-build";

// Issue 13: many machines. Two web instances built and started separately (A serves the
// project's build; B a build of its own, made here from a copy of the sources in another folder
// with the same NEXT_SERVER_ACTIONS_ENCRYPTION_KEY, as a second machine makes it; each `npm run
// serve` on its port, JOB_WORKER=off) and two export workers (`npm run worker`), on one fresh
// PostgreSQL database and one S3-compatible bucket (s3rver over HTTP, the real AWS SDK), with
// nginx in front of both when it is installed (docs/deployment.md's configuration). Over HTTP: both
// builds have one build id and the same server action ids; a session made on A works on B, and
// A's pages load their assets from B; a server action from A's page runs on B; an export
// requested on one instance downloads from the other; failed sign-ins spread over both lock the
// account; two workers run an export job once; a worker SIGKILLed mid-export is taken over by
// the other, and the file holds exactly the right rows; the bucket going away answers 503 and
// comes back by itself; a sheet over 1 MB uploads through nginx, is previewed, started on A, run
// by a worker, and its rejected rows download from B.

const ROWS = 40_000;
const PASSWORD = "many-machines-password-1";
const users = [
  { email: "staff@many.test", role: "staff" },
  { email: "admin@many.test", role: "admin" },
  { email: "locked@many.test", role: "staff" },
];

if (!process.env.TEST_DATABASE_URL) {
  console.info("many machines: skipped, TEST_DATABASE_URL is not set (several processes need a PostgreSQL server; the embedded database is one process's).");
  describe("many machines", () => {
    it.skip("needs PostgreSQL: set TEST_DATABASE_URL (npm test does when a server answers on 127.0.0.1:5432)", () => {});
  });
} else {
  describe("many machines: two web instances, two workers, one database, one bucket", () => {
    let database: TestDatabase;
    let pool: pg.Pool;
    let bucket: S3Server;
    let a: NextServer;
    let b: NextServer;
    const workers: WorkerProcess[] = [];
    let proxy: Nginx | null = null;
    /** B's own build, made while the rest starts. */
    let building: Promise<SeparateBuild> | undefined;
    let second: SeparateBuild;
    let env: Record<string, string>;
    const HEALTH_TOKEN = crypto.randomBytes(24).toString("hex");

    const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[];
    const signedIn = async (server: NextServer, email: string) => {
      const browser = new Browser(server.url);
      const answer = await browser.signIn(email, PASSWORD);
      expect(answer.status, answer.body).toBe(200);
      return browser;
    };
    /** The same browser's cookies, sent to another instance. */
    const on = (server: { url: string }, browser: Browser) => {
      const other = new Browser(server.url);
      for (const [name, value] of browser.jar) other.jar.set(name, value);
      return other;
    };
    const exportRow = async (id: string) =>
      (await sql<{ status: string; processed_rows: number; total_rows: number; job_id: string }>(
        `SELECT status::text AS status, processed_rows, total_rows, job_id FROM subscriber_exports WHERE id = $1`, [id]))[0]!;
    const job = async (id: string) =>
      (await sql<{ state: string; retry_count: number }>(
        `SELECT state::text AS state, retry_count FROM pgboss.job WHERE id::text = (SELECT job_id FROM subscriber_exports WHERE id = $1)`, [id]))[0]!;
    const latestExport = async (email: string) =>
      (await sql<{ id: string }>(`SELECT e.id FROM subscriber_exports e JOIN users u ON u.id = e.user_id WHERE u.email = $1 ORDER BY e.created_at DESC LIMIT 1`, [email]))[0]!.id;
    // The workers' job lines (JSON, lib/jobs/worker.ts) that match: which worker wrote each.
    type JobLine = { job?: string; job_id?: string; attempt?: number; msg?: string; outcome?: string };
    const jobLine = (text: string): JobLine | null => {
      try {
        return JSON.parse(text) as JobLine;
      } catch {
        return null;
      }
    };
    const workerLines = (match: Partial<JobLine>) =>
      workers.flatMap((w, i) =>
        w
          .output()
          .split("\n")
          .filter((text) => {
            const line = jobLine(text);
            return line !== null && Object.entries(match).every(([key, value]) => line[key as keyof JobLine] === value);
          })
          .map((line) => ({ worker: i, line })),
      );
    const objectKeys = async (prefix = "console/exports/") => {
      const s3 = new S3Client({ endpoint: bucket.endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
      const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket.bucket, Prefix: prefix }));
      return (listed.Contents ?? []).map((o) => o.Key!);
    };
    const downloadRows = async (browser: Browser, id: string) => {
      const answer = await browser.request(`/api/v1/exports/${id}/download`);
      expect(answer.status, answer.body.slice(0, 300)).toBe(200);
      const [header, ...rows] = parse(answer.body, { bom: true, record_delimiter: "\r\n" }) as string[][];
      expect(header![0]).toBe("id");
      return rows.map((r) => Number(r[0]));
    };

    beforeAll(async () => {
      const started = performance.now();
      // The key the project's build was made with: B's build is made with it, and every instance runs with it.
      const actionsKey = builtActionsKey(projectRoot);
      if (!actionsKey) throw new Error(`${projectRoot}/.next records no server actions key: run \`npx next build\` first.`);
      building = separateBuild(projectRoot, { NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: actionsKey });
      building.catch(() => {}); // awaited below
      bucket = await startS3Server({ bucket: "console-files" });
      database = await createTestDatabase(process.env.TEST_DATABASE_URL!);
      await applyMigrations(database.url);
      pool = new pg.Pool({ connectionString: database.url, max: 2 });
      pool.on("error", () => {}); // an idle connection ended by the drop at the end
      await seedSubscribers((text) => pool.query(text), ROWS);
      const hash = await hashPassword(PASSWORD);
      for (const u of users) {
        await pool.query(`INSERT INTO users (email, name, role, password_hash, updated_at) VALUES ($1, $2, $3, $4, now())`, [u.email, u.email.split("@")[0], u.role, hash]);
      }
      const [portA, portB, portProxy] = [await freePort(), await freePort(), await freePort()];
      const proxyUrl = `http://127.0.0.1:${portProxy}`;
      env = {
        DATABASE_URL: database.url,
        DATABASE_SENTINEL: "off",
        NEXTAUTH_SECRET: crypto.randomBytes(32).toString("base64url"), // one secret: a session is good everywhere
        NEXTAUTH_URL: proxyUrl,
        // The key both builds were made with, given to every instance as a deployment would.
        NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: actionsKey,
        ...s3Env(bucket, "console"),
        STORAGE_DIR: "",
        TRUST_PROXY: "1",
        HEALTH_TOKEN,
        JOB_WORKER: "off",
        EXPORT_BATCH_SIZE: "20",
        JOB_POLL_SECONDS: "1",
        JOB_MAINTENANCE_SECONDS: "1",
        JOB_EXPIRE_SECONDS: "15",
        JOB_RETRY_DELAY_SECONDS: "0",
        JOB_STOP_TIMEOUT_SECONDS: "2",
      };
      a = await startNextServer({ port: portA, env });
      workers.push(spawnWorker(env), spawnWorker(env));
      await Promise.all(workers.map((w, i) => until(async () => w.output().includes("job worker: started"), 60_000, `worker ${i}\n${w.output()}`)));
      second = await building;
      console.info(`many machines: B's own build (a copy of the sources, next build) took ${second.seconds.toFixed(0)} s`);
      b = await startNextServer({ port: portB, env, appDir: second.dir });
      if (nginxBinary()) proxy = await startNginx([`127.0.0.1:${portA}`, `127.0.0.1:${portB}`], portProxy);
      else console.info("many machines: nginx is not installed (apt-get install nginx): the reverse proxy part is skipped.");
      console.info(`many machines: set up in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }, 480_000);

    afterAll(async () => {
      for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
      await Promise.all(workers.map((w) => w.exited));
      await Promise.all([a?.stop(), b?.stop(), proxy?.stop()]);
      await pool?.end();
      await database?.drop();
      await bucket?.close();
      await building?.then((build) => build.remove(), () => {});
    }, 300_000);

    it("serves two builds made apart from the same sources with one actions key: one build id, the same action ids and assets", () => {
      const builtId = (dir: string) => fs.readFileSync(path.join(dir, ".next", "BUILD_ID"), "utf8");
      expect(second.dir).not.toBe(projectRoot);
      expect(builtId(projectRoot)).toBe(buildId(projectRoot));
      expect(builtId(second.dir)).toBe(builtId(projectRoot));
      expect(builtActionsKey(second.dir)).toBe(env.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY);
      const actions = (dir: string) => builtServerActions(dir).map((x) => `${x.name} ${x.id}`).sort();
      expect(actions(projectRoot).length).toBeGreaterThan(5);
      expect(actions(second.dir)).toEqual(actions(projectRoot));
      const assets = (dir: string) => (fs.readdirSync(path.join(dir, ".next", "static"), { recursive: true }) as string[]).sort();
      expect(assets(second.dir)).toEqual(assets(projectRoot));
    });

    it("takes a session made on A on B, pages and API alike; A's pages load their scripts and styles from B", async () => {
      const staffA = await signedIn(a, "staff@many.test");
      const staffB = on(b, staffA);
      const session = JSON.parse((await staffB.request("/api/auth/session")).body) as { user?: { email: string } };
      expect(session.user?.email).toBe("staff@many.test");
      expect((await staffB.request("/api/v1/branches")).status).toBe(200);
      expect((await staffB.request("/subscribers")).status).toBe(200);
      // Behind a balancer the browser fetches a page's assets from whichever instance answers.
      const page = await staffA.request("/subscribers/new");
      const assets = [...new Set([...page.body.matchAll(/\/_next\/static\/[^"'\s)\\]+/g)].map((m) => m[0]))];
      expect(assets.length).toBeGreaterThan(3);
      for (const asset of assets) expect((await rawRequest(b.url, asset)).status, asset).toBe(200);
    });

    it("runs on B the server action A's page gave the browser; its export is run once by two workers and downloads from A", async () => {
      const staffA = await signedIn(a, "staff@many.test");
      const action = builtServerActions().find((x) => x.name === "requestExportAction")!;
      // The id as A's /subscribers page hands it to the browser: the panel gets the action as a
      // prop, so the page's inline payload names it.
      const page = await staffA.request("/subscribers");
      expect(page.status).toBe(200);
      expect(page.body, "the action's id in A's page").toContain(action.id);

      const staffB = on(b, staffA);
      const posted = await staffB.request("/subscribers", {
        method: "POST",
        headers: { "next-action": action.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: b.url },
        body: JSON.stringify([{}]),
      });
      expect(posted.status, posted.body.slice(0, 300)).toBe(200);
      expect(posted.body).toContain('"ok":true');
      const id = await latestExport("staff@many.test");
      await until(async () => (await job(id)).state === "completed", 90_000, `completion\n${workers.map((w) => w.output()).join("\n")}`);

      expect(await exportRow(id)).toMatchObject({ status: "completed", processed_rows: ROWS, total_rows: ROWS });
      expect(await job(id)).toEqual({ state: "completed", retry_count: 0 });
      // One worker took it, once; one completion; one file.
      expect(workerLines({ job: "export", job_id: id, msg: "job started" })).toHaveLength(1);
      expect(workerLines({ job: "export", job_id: id, msg: "job ended", outcome: `${ROWS} rows` })).toHaveLength(1);
      expect((await objectKeys()).filter((k) => k.includes(id))).toEqual([`console/exports/${id}.csv`]);
      expect(await downloadRows(staffA, id)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
    }, 120_000);

    it("locks an account after five failed sign-ins spread over both instances", async () => {
      const answers = [];
      for (const [i, server] of [a, b, a, b, a].entries()) answers.push((await new Browser(server.url).signIn("locked@many.test", `wrong-${i}`)).status);
      expect(answers).toEqual([401, 401, 401, 401, 401]);
      for (const server of [b, a]) {
        const answer = await new Browser(server.url).signIn("locked@many.test", PASSWORD);
        expect(answer.status, answer.body).toBe(429);
        expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
      }
    });

    it("lets the other worker take over an export whose worker was SIGKILLed mid-job; the file holds exactly the right rows", async () => {
      const adminA = await signedIn(a, "admin@many.test");
      const requested = await adminA.request("/api/v1/subscribers/export", { method: "POST" });
      expect(requested.status, requested.body).toBe(202);
      const id = await latestExport("admin@many.test");
      const { worker } = await until(async () => workerLines({ job: "export", job_id: id, attempt: 1, msg: "job started" })[0], 30_000, "the job to start");
      await until(async () => (await exportRow(id)).processed_rows > 0, 30_000, "progress");
      const victim = workers[worker]!;
      victim.child.kill("SIGKILL");
      await victim.exited;
      const left = await exportRow(id);
      expect(left.status).toBe("in_queue");
      expect(left.processed_rows).toBeLessThan(ROWS);
      expect((await objectKeys()).filter((k) => k.includes(id))).toEqual([]); // nothing half-written is visible

      // The job expires (JOB_EXPIRE_SECONDS), the survivor's maintenance retries it, and it runs it.
      const survivor = 1 - worker;
      await until(async () => (await job(id)).state === "completed", 90_000, `takeover\n${workers[survivor]!.output()}`);
      expect(workerLines({ job: "export", job_id: id, attempt: 2, msg: "job started" }).map((l) => l.worker)).toEqual([survivor]);
      expect(await job(id)).toEqual({ state: "completed", retry_count: 1 });
      expect(await exportRow(id)).toMatchObject({ status: "completed", processed_rows: ROWS, total_rows: ROWS });
      expect(await downloadRows(on(b, adminA), id)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
    }, 150_000);

    it("answers downloads 503 with Retry-After while the bucket is away, on every instance, and serves them again by itself", async () => {
      const adminB = await signedIn(b, "admin@many.test");
      const id = await latestExport("admin@many.test");
      const health = async (server: NextServer) =>
        JSON.parse((await rawRequest(server.url, "/api/health", { headers: { authorization: `Bearer ${HEALTH_TOKEN}` } })).body) as { status: string; storage: { status: string; kind: string } };
      expect((await health(b)).storage).toMatchObject({ status: "up", kind: "s3" });
      await bucket.stop();
      try {
        for (const browser of [adminB, on(a, adminB)]) {
          const answer = await browser.request(`/api/v1/exports/${id}/download`);
          expect(answer.status).toBe(503);
          expect(answer.headers["retry-after"]).toBe("5");
          expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "storage_unavailable" } });
        }
        expect(await health(a)).toMatchObject({ status: "degraded", storage: { status: "down", kind: "s3" } });
        expect((await adminB.request("/api/v1/branches")).status).toBe(200); // the rest of the console works
      } finally {
        await bucket.start();
      }
      expect((await downloadRows(adminB, id)).length).toBe(ROWS);
      expect((await health(a)).storage.status).toBe("up");
    });

    it("works behind nginx with docs/deployment.md's configuration: both instances answer, and the audit log has the client's address", async (context) => {
      if (!proxy) {
        console.info("many machines: nginx is not installed, so its part is skipped (apt-get install nginx; .ci/run installs it).");
        context.skip();
        return;
      }
      const through = new Browser(proxy.url, "127.0.0.2");
      const before = proxy.accessLog().length;
      for (let i = 0; i < 6; i++) expect((await rawRequest(proxy.url, "/api/health")).status).toBe(200);
      const upstreams = new Set(proxy.accessLog().slice(before).map((line) => line.split(" ").at(-1)));
      expect(upstreams).toEqual(new Set([a.url.replace("http://", ""), b.url.replace("http://", "")]));

      expect((await through.signIn("admin@many.test", PASSWORD)).status).toBe(200);
      for (let i = 0; i < 4; i++) expect((await through.request("/api/v1/branches")).status).toBe(200); // on both, by turns
      const [signIn] = await sql<{ ip: string }>(
        `SELECT ip FROM audit_events WHERE action = 'auth.sign_in' AND actor_email = 'admin@many.test' ORDER BY id DESC LIMIT 1`);
      expect(signIn!.ip).toBe("127.0.0.2"); // not nginx's 127.0.0.1: TRUST_PROXY=1 takes nginx's X-Forwarded-For
      const audit = await through.request("/audit");
      expect(audit.status).toBe(200);
      expect(audit.body).toContain("127.0.0.2");
      // A server action through nginx: Host and Origin agree ($http_host), so Next accepts it.
      const action = builtServerActions().find((x) => x.name === "requestExportAction")!;
      const posted = await through.request("/subscribers", {
        method: "POST",
        headers: { "next-action": action.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: proxy.url },
        body: JSON.stringify([{ email: "nobody.matches" }]),
      });
      expect(posted.status, posted.body.slice(0, 300)).toBe(200);
      // The action ran: its filter was counted (no match, so nothing is queued).
      expect(posted.body).toContain("No subscriber matches these filters, so there is nothing to export.");
    });

    it("takes a sheet over 1 MB through nginx: previewed, started on A, run by a worker, its rejected rows downloaded from B", async (context) => {
      if (!proxy) {
        context.skip();
        return;
      }
      // The header an import reads (GET /api/v1/subscribers/imports/template, docs/API.md).
      const header = "first_name,last_name,email,mobile,branch_name,country_name,travel_date,sheet,subscription_status,is_mandatory";
      const ROWS_IN = 7_000;
      const bad = (i: number) => i % 100 === 0;
      const lines = [header];
      for (let i = 1; i <= ROWS_IN; i++) {
        const email = bad(i) ? `not-an-email-${i}` : `imported.subscriber.${i}@many-machines-import.example.com`;
        lines.push(`Importedfirstname${i},Importedlastname-with-a-long-family-name-${i},${email},+447911${200000 + i},Northgate,,2027-03-01,Many machines import,active,no`);
      }
      const csv = Buffer.from(lines.join("\r\n") + "\r\n");
      expect(csv.length).toBeGreaterThan(1024 * 1024); // past nginx's default client_max_body_size
      const rejected = Array.from({ length: ROWS_IN }, (_, i) => i + 1).filter(bad).length;
      const boundary = `----many-machines-${crypto.randomBytes(8).toString("hex")}`;
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="dry_run"\r\n\r\ntrue\r\n`),
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="many-machines.csv"\r\ncontent-type: text/csv\r\n\r\n`),
        csv,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const through = new Browser(proxy.url, "127.0.0.3");
      expect((await through.signIn("staff@many.test", PASSWORD)).status).toBe(200);

      // The preview (a dry run), through nginx on whichever instance it picks.
      const previewed = await through.request("/api/v1/subscribers/imports", { method: "POST", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body });
      expect(previewed.status, previewed.body.slice(0, 300)).toBe(200);
      const preview = JSON.parse(previewed.body) as { id: string; dry_run: boolean; status: string; total_rows: number; imported_rows: number; rejected_rows: number };
      expect(preview).toMatchObject({ dry_run: true, status: "completed", total_rows: ROWS_IN, imported_rows: ROWS_IN - rejected, rejected_rows: rejected });
      expect(await objectKeys(`console/imports/${preview.id}`)).toContain(`console/imports/${preview.id}.source`);

      // Started on A with the import page's server action.
      const start = builtServerActions().find((x) => x.name === "startImportAction")!;
      const started = await on(a, through).request(`/subscribers/import/${preview.id}`, {
        method: "POST",
        headers: { "next-action": start.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: a.url },
        body: JSON.stringify([{ id: preview.id }]),
      });
      expect(started.status, started.body.slice(0, 300)).toBe(200);
      expect(started.body).toContain('"ok":true');

      // A worker runs it; B reports it and serves its rejected rows from the bucket.
      const onB = on(b, through);
      type Status = { status: string; imported_rows: number; rejected_rows: number; rejected_file: string | null };
      const done = await until(async () => {
        const status = JSON.parse((await onB.request(`/api/v1/subscribers/imports/${preview.id}`)).body) as Status;
        return status.status === "completed" || status.status === "failed" ? status : null;
      }, 90_000, `the import to finish\n${workers.map((w) => w.output()).join("\n")}`);
      expect(done).toMatchObject({ status: "completed", imported_rows: ROWS_IN - rejected, rejected_rows: rejected, rejected_file: `/api/v1/subscribers/imports/${preview.id}/rejected` });
      expect(workerLines({ job: "import", job_id: preview.id, msg: "job ended", outcome: `${ROWS_IN - rejected} of ${ROWS_IN} rows imported` })).toHaveLength(1);
      const [{ n }] = (await sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM subscribers s JOIN sheets sh ON sh.id = s.sheet_id WHERE sh.name = 'Many machines import'`)) as [{ n: number }];
      expect(n).toBe(ROWS_IN - rejected);
      const file = await onB.request(done.rejected_file!);
      expect(file.status, file.body.slice(0, 300)).toBe(200);
      const [head, ...rows] = parse(file.body, { bom: true }) as string[][];
      expect(head).toEqual([...header.split(","), "error"]);
      expect(rows.map((r) => r[2])).toEqual(Array.from({ length: ROWS_IN }, (_, i) => i + 1).filter(bad).map((i) => `not-an-email-${i}`));
      expect((await through.request(done.rejected_file!)).status).toBe(200); // and through nginx

      // A file declared past IMPORT_MAX_MB (but under nginx's limit) gets the console's own 413 at
      // once: nginx passes the body on as it comes (proxy_request_buffering off) instead of
      // waiting for all of it first.
      const declared = await Promise.race([
        through.request("/api/v1/subscribers/imports", {
          method: "POST",
          headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(105 * 1024 * 1024) },
          body: body.subarray(0, 64 * 1024),
        }),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000)),
      ]);
      expect(declared, "nginx waited for the whole body").not.toBeNull();
      expect(declared!.status).toBe(413);
      expect(JSON.parse(declared!.body)).toMatchObject({ error: { code: "too_large" } });
    }, 150_000);
  });
}
