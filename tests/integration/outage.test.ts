import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { parse } from "csv-parse/sync";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/auth/password";
import { applyMigrations } from "@/tools/migrate";
import { seedSubscribers } from "../helpers/export-data";
import { until } from "../helpers/export-process";
import { rssMb, signIn, startNextServer, type NextServer } from "../helpers/next-server";
import { createCluster, freePort, type PgCluster } from "../helpers/pg-cluster";

// PostgreSQL goes away under a running console and comes back.
//
// A PostgreSQL server of this test's own (initdb in a temporary folder, its own port; as root
// through runuser) serves a real `next start` of the production build (build it first:
// `npx next build`). The test stops the server while an export is being written, checks that
// pages and JSON answer a clear 503 (never a 500, never a stack trace), starts it again and
// checks that the same server process answers 200 again and that the export completes.
// A second server without the proxy's database sentinel (DATABASE_SENTINEL=off) shows the
// fallback in a browser: the page's error boundary says the same and recovers by itself.
//
// Not skipped when something is missing: no binaries, no runuser or no build fail with a message.

const ROWS = 150_000;
const PASSWORD = "outage-test-password";
const STACK = /\bat \S+ \(|node_modules|Prisma|ECONNREFUSED|127\.0\.0\.1/;

const HEALTH_TOKEN = "outage-health-token-0123456789abcdef";

describe("PostgreSQL outage (real server, real next start)", () => {
  let cluster: PgCluster;
  let server: NextServer;
  let fallback: NextServer;
  let browser: Browser;
  let cookie: string;
  let exportDir: string;

  beforeAll(async () => {
    cluster = await createCluster();
    cluster.start();
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query("CREATE DATABASE console");
    await admin.end();
    const url = cluster.url("console");
    await applyMigrations(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await seedSubscribers((text) => client.query(text), ROWS);
    await client.query(
      `INSERT INTO users (email, name, role, password_hash, updated_at) VALUES ($1, 'Outage Admin', 'admin', $2, now())`,
      ["admin@outage.test", await hashPassword(PASSWORD)],
    );
    await client.end();

    exportDir = fs.mkdtempSync(path.join(os.tmpdir(), "outage-exports-"));
    const port = await freePort();
    const common = { DATABASE_URL: url, NEXTAUTH_SECRET: "outage-test-secret-0123456789abcdef", STORAGE_DIR: exportDir, HEALTH_TOKEN };
    const fallbackPort = await freePort();
    fallback = await startNextServer({
      port: fallbackPort,
      env: { ...common, NEXTAUTH_URL: `http://127.0.0.1:${fallbackPort}`, DATABASE_SENTINEL: "off", JOB_WORKER: "off" },
    });
    server = await startNextServer({
      port,
      env: {
        ...common,
        NEXTAUTH_URL: `http://127.0.0.1:${port}`,
        // Slow enough that the export is still being written when the server stops; quick to
        // hand back the attempt that the outage broke.
        EXPORT_BATCH_SIZE: "100",
        JOB_POLL_SECONDS: "1",
        JOB_MAINTENANCE_SECONDS: "1",
        JOB_EXPIRE_SECONDS: "20",
        JOB_RETRY_DELAY_SECONDS: "1",
      },
    });
    cookie = await signIn(server.url, "admin@outage.test", PASSWORD);
    const executablePath = [process.env.CHROMIUM_PATH, "/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((p) => p && fs.existsSync(p));
    browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-background-networking", "--no-first-run"] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await fallback?.stop();
    await server?.stop();
    if (process.env.OUTAGE_SERVER_LOG && server) fs.writeFileSync(process.env.OUTAGE_SERVER_LOG, server.output());
    cluster?.destroy();
    if (exportDir) fs.rmSync(exportDir, { recursive: true, force: true });
  });

  const get = (p: string, init: RequestInit = {}) =>
    fetch(`${server.url}${p}`, { redirect: "manual", ...init, headers: { cookie, ...(init.headers as Record<string, string>) } });
  const exportStatus = async () => (await (await get("/api/v1/subscribers/export")).json()) as Record<string, unknown>;

  it("answers 503 while PostgreSQL is down, recovers by itself, and the export in progress completes", async () => {
    // Before: all well.
    expect((await get("/subscribers")).status).toBe(200);
    expect((await get("/api/v1/branches")).status).toBe(200);
    const healthy = await get("/api/health");
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toMatchObject({ status: "ok", database: { status: "up", kind: "postgres" } });

    // A signed-in browser on the server without the sentinel, showing a page (opened first: the
    // export below must still be writing when PostgreSQL stops).
    const context = await browser.newContext();
    const [name] = cookie.split("=");
    await context.addCookies([{ name: name!, value: cookie.slice(name!.length + 1), url: fallback.url }]);
    const tab = await context.newPage();
    expect((await tab.goto(`${fallback.url}/subscribers`))!.status()).toBe(200);

    // An export, caught while its file is being written.
    const requested = await get("/api/v1/subscribers/export", { method: "POST" });
    expect(requested.status).toBe(202);
    await until(async () => {
      const s = await exportStatus();
      return s.started_at !== null && Number(s.processed_rows) > 0 && s.downloadable_file_status === "in_queue";
    }, 30_000, "the export to start writing");

    const pid = server.pid;
    expect((await exportStatus()).downloadable_file_status).toBe("in_queue");
    const stoppedAt = new Date();
    cluster.stop("fast");

    // JSON: 503 + Retry-After with docs/API.md's error shape, no trace of the cause.
    for (const p of ["/api/v1/branches", "/api/v1/subscribers?page=2", "/api/v1/subscribers/export"]) {
      const response = await get(p);
      const text = await response.text();
      expect(response.status, `${p}: ${text}`).toBe(503);
      expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(response.headers.get("cache-control")).toContain("no-store");
      expect(JSON.parse(text)).toEqual({ error: { code: "unavailable", message: expect.stringMatching(/database is unavailable/i), request_id: response.headers.get("x-request-id") } });
      expect(text).not.toMatch(STACK);
    }
    // Health: the details for the operator's token (no session can be checked now), the status
    // only for anyone else (the admin's cookie included: its role cannot be read).
    const health = await get("/api/health", { headers: { authorization: `Bearer ${HEALTH_TOKEN}` } });
    expect(health.status).toBe(503);
    expect(health.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await health.json()).toMatchObject({ status: "unavailable", database: { status: "down", reason: "unreachable" } });
    const plainHealth = await get("/api/health");
    expect(plainHealth.status).toBe(503);
    expect(plainHealth.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await plainHealth.json()).toEqual({ status: "unavailable" });

    // Pages: the 503 page, with the security headers and a self-reload.
    for (const p of ["/subscribers", "/branches?page=2", "/branches/new", "/login"]) {
      const response = await get(p);
      const html = await response.text();
      expect(response.status, `${p}: ${html.slice(0, 300)}`).toBe(503);
      expect(html).toContain("The database is unavailable, retrying…");
      expect(html).toMatch(/http-equiv="refresh"/);
      expect(html).not.toMatch(STACK);
      expect(response.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
      expect(response.headers.get("cache-control")).toContain("no-store");
    }

    // Without the sentinel the page fails (500, Next's own status for a failed render), and its
    // error boundary asks /api/health and says what is going on.
    const failed = await tab.goto(`${fallback.url}/branches`);
    expect(failed!.status()).toBe(500);
    await tab.getByRole("heading", { name: "The database is unavailable, retrying…" }).waitFor({ timeout: 15_000 });
    expect(await tab.content()).not.toMatch(STACK);

    // Back: the same process answers again, without a restart.
    cluster.start();
    await until(async () => (await get("/api/health")).status === 200, 20_000, "/api/health to answer 200");
    await until(async () => (await get("/subscribers")).status === 200, 10_000, "/subscribers to answer 200");
    expect((await get("/api/v1/branches")).status).toBe(200);
    const page = await get("/subscribers?page=2");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Subscribers");
    expect(server.child.exitCode).toBeNull();
    expect(server.pid).toBe(pid);
    expect(rssMb(pid)).toBeGreaterThan(0); // still alive
    // The browser's page came back by itself, nobody reloaded it.
    await tab.getByRole("heading", { name: "Branches", exact: true }).waitFor({ timeout: 20_000 });
    await context.close();

    // The export that the outage interrupted is generated again and completes, whole.
    const done = await until(async () => {
      const s = await exportStatus();
      if (s.downloadable_file_status === "failed") throw new Error(`export failed: ${String(s.error)}`);
      return s.downloadable_file_status === "completed" ? s : null;
    }, 60_000, "the export to complete");
    expect(done).toMatchObject({ total_rows: ROWS, processed_rows: ROWS, progress: 100 });
    expect(new Date(String(done.completed_at)).getTime(), "completed after the outage, not before").toBeGreaterThan(stoppedAt.getTime());
    const file = await get(String(done.downloadable_file));
    expect(file.status).toBe(200);
    const records = parse(await file.text(), { bom: true, record_delimiter: "\r\n" }) as string[][];
    expect(records.length).toBe(ROWS + 1); // the header and every subscriber, once
    expect(server.output()).not.toMatch(/uncaughtException/i);
  }, 150_000);
});
