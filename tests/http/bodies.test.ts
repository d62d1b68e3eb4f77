import { spawnSync } from "node:child_process";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, startConsole, type ConsoleServer } from "../helpers/console-server";
import { rssMb } from "../helpers/next-server";

// Bodies are limited before they are read (issue "Security, part 2", point 2), against the
// production build over HTTP: a declared length over the limit is refused at once, an undeclared
// one is dropped when it passes the limit, and the server's memory does not grow with what a
// client sends. Page POSTs (server actions) past Next's limit answer 413, not 500.

const ADMIN = { email: "boss@bodies.test", password: "bodies-password-123", role: "admin" as const };
const MB = 1024 * 1024;

/** Sends `total` bytes to `path` in 64 KB chunks, declared or chunked; resolves with the status and how much was sent. */
function flood(server: ConsoleServer, path: string, total: number, options: { declared: boolean; headers?: Record<string, string> }) {
  const url = new URL(server.url);
  return new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path,
        agent: false,
        headers: { "content-type": "application/json", ...(options.declared ? { "content-length": String(total) } : {}), ...options.headers },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        const done = () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), sent });
        };
        res.on("end", done);
        res.on("error", done); // cut off after the answer: the answer stands
        res.on("aborted", done);
      },
    );
    // The server may answer and close while the client is still writing (EPIPE, ECONNRESET):
    // the answer is what counts, so give it a moment to arrive before calling that a failure.
    req.on("error", (error) => {
      if (!answered) setTimeout(() => answered || reject(error), 2_000);
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
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
    // 600 MB, declared: answered at once (curl, like a browser, reads an answer that comes early).
    const curl = spawnSync(
      "sh",
      ["-c", `head -c ${600 * MB} /dev/zero | curl -s -o /dev/null -w '%{http_code} %{size_upload}' -X POST -H 'next-action: x' -H 'content-type: text/plain' -H 'content-length: ${600 * MB}' -H 'cookie: ${admin.cookie}' --data-binary @- ${server.url}/branches/new`],
      { encoding: "utf8" },
    );
    const [status, uploaded] = curl.stdout.trim().split(" ").map(Number);
    expect(status, curl.stdout + curl.stderr).toBe(413);
    expect(uploaded).toBeLessThan(100 * MB);
    expect((await flood(server, "/branches/new", 2 * MB, { declared: false, headers })).status).toBe(411);
    const form = { cookie: admin.cookie, "content-type": "multipart/form-data; boundary=x" };
    expect((await flood(server, "/subscribers", 3 * MB, { declared: true, headers: form })).status).toBe(413);
  });
});
