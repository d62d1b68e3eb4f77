import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, startConsole, type ConsoleServer } from "../helpers/console-server";
import { rssMb } from "../helpers/next-server";

// Bodies are limited before they are read (issue "Security, part 2", point 2), against the
// production build over HTTP: a declared length over the limit is refused at once, an undeclared
// one is dropped when it passes the limit, and the server's memory does not grow with what a
// client sends. Page POSTs (server actions) past Next's limit answer 413, not 500.

const ADMIN = { email: "boss@bodies.test", password: "bodies-password-123", role: "admin" as const };
const MB = 1024 * 1024;

/**
 * Sends `total` bytes to `path` with curl, declared (Content-Length) or chunked; resolves with the
 * status and how much curl uploaded. curl reads an answer that comes while it is still sending,
 * as browsers do (Node's own client loses it when the server closes the connection early).
 */
function flood(server: ConsoleServer, path: string, total: number, options: { declared: boolean; headers?: Record<string, string>; method?: string }) {
  const headers = { "content-type": "application/json", ...(options.declared ? { "content-length": String(total) } : { "transfer-encoding": "chunked" }), ...options.headers };
  const args = Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]);
  const quoted = ["curl", "-s", "-o", "-", "-w", "\\n%{http_code} %{size_upload}", "-X", options.method ?? "POST", ...args, "--data-binary", "@-", `${server.url}${path}`]
    .map((a) => `'${a.replaceAll("'", "'\\''")}'`)
    .join(" ");
  return new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
    const child = spawn("sh", ["-c", `head -c ${total} /dev/zero | ${quoted}`]);
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("close", () => {
      const lines = out.trimEnd().split("\n");
      const [status, sent] = lines.pop()!.split(" ").map(Number);
      resolve({ status: status!, body: lines.join("\n"), sent: sent! });
    });
  });
}

describe("request bodies over HTTP", () => {
  let server: ConsoleServer;
  let admin: Browser;

  beforeAll(async () => {
    server = await startConsole("pglite", { users: [ADMIN] });
    admin = new Browser(server.url);
    expect((await admin.signIn(ADMIN.email, ADMIN.password)).status).toBe(200);
  });
  afterAll(async () => server?.close());

  it("refuses a declared 200 MB JSON body at once, and an undeclared one once it passes 64 KB; memory stays flat", async () => {
    // Warm the route first, so what is measured is the bodies, not the first compile of the route.
    expect((await admin.request("/api/v1/branches", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(400);
    const before = rssMb(server.pid);
    const cookie = { cookie: admin.cookie };
    const declared = await flood(server, "/api/v1/branches", 200 * MB, { declared: true, headers: cookie });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({ error: { code: "too_large" } });
    expect(declared.sent).toBeLessThan(200 * MB); // answered before the client finished

    const results = await Promise.all(
      [0, 1, 2, 3].map(() => flood(server, "/api/v1/branches", 200 * MB, { declared: false, headers: cookie })),
    );
    for (const r of results) {
      expect(r.status).toBe(413);
      expect(r.sent).toBeLessThan(200 * MB);
    }
    expect(rssMb(server.pid) - before).toBeLessThan(100);
    // The server still answers.
    expect((await admin.request("/api/v1/branches")).status).toBe(200);
  });

  it("answers a page POST (a server action) past Next's 1 MB limit with 413, declared or not", async () => {
    const headers = { cookie: admin.cookie, "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8" };
    expect((await flood(server, "/branches/new", 2 * MB, { declared: true, headers })).status).toBe(413);
    const huge = await flood(server, "/branches/new", 600 * MB, { declared: true, headers });
    expect(huge.status).toBe(413);
    expect(huge.sent).toBeLessThan(100 * MB); // answered at once, not after the upload
    expect((await flood(server, "/branches/new", 2 * MB, { declared: false, headers })).status).toBe(411);
    const form = { cookie: admin.cookie, "content-type": "multipart/form-data; boundary=x" };
    expect((await flood(server, "/subscribers", 3 * MB, { declared: true, headers: form })).status).toBe(413);
  });
  it("refuses a sign-in body past next-auth's 8 KB by its declared length, before Next reads it for the proxy", async () => {
    const before = rssMb(server.pid);
    const form = { "content-type": "application/x-www-form-urlencoded" };
    for (const path of ["/api/auth/callback/credentials", "/api/auth/signout"]) {
      const declared = await flood(server, path, 12 * MB, { declared: true, headers: form });
      expect(declared.status, path).toBe(413);
      expect(JSON.parse(declared.body)).toMatchObject({ error: { code: "too_large" } });
      expect((await flood(server, path, 12 * MB, { declared: false, headers: form })).status, path).toBe(411);
      expect((await flood(server, path, 9 * 1024, { declared: true, headers: form })).status, path).toBe(413);
    }
    // Next's own buffering for the proxy never started: it logs when a body passes its limit.
    expect(server.output()).not.toMatch(/Request body exceeded/);
    expect(rssMb(server.pid) - before).toBeLessThan(50);
    // A sign-in within the limit still works.
    const again = new Browser(server.url);
    expect((await again.signIn(ADMIN.email, ADMIN.password)).status).toBe(200);
  });

  it("answers 405 to the methods pages do not answer, with or without a body, before reading it", async () => {
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      for (const path of ["/login", "/subscribers", "/branches/new", "/api/auth/session"]) {
        const sent = await flood(server, path, 3 * MB, { declared: true, method, headers: { cookie: admin.cookie } });
        expect(sent.status, `${method} ${path}`).toBe(405);
        expect((await admin.request(path, { method })).status, `${method} ${path} without a body`).toBe(405);
      }
    }
    const patched = await admin.request("/login", { method: "PATCH" });
    expect(patched.headers.allow).toBe("GET, HEAD, POST");
    expect(server.output()).not.toMatch(/Request body exceeded/);
    // The JSON API keeps its own methods.
    expect((await admin.request("/api/v1/branches/999999", { method: "DELETE" })).status).toBe(404);
  });
});
