import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, rawRequest, startConsole, type ConsoleServer } from "../helpers/console-server";

// `npm run serve` with several processes on one port (docs/decisions/0036-every-core.md), against
// the production build on PostgreSQL: requests are shared among them, /metrics adds all of them
// up, one that dies is started again while the others serve, the first runs the jobs, and SIGTERM
// stops them all; a token's requests a minute are the server's, not each process's.

const PASSWORD = "web-processes-password-1";
const ADMIN = { email: "admin@processes.test", password: PASSWORD, role: "admin" as const };
const METRICS_TOKEN = "metrics-token-for-the-processes-test-0123";
const TOKEN_LIMIT = 12;

/** The server processes whose parent is `pid` (from /proc: no `ps` needed); tsx's esbuild service is not one. */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        // The command may hold spaces and parentheses: the fields after its closing one are fixed.
        const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return parent === pid && fs.readFileSync(`/proc/${name}/cmdline`, "utf8").includes("server.ts") ? [Number(name)] : [];
      } catch {
        return []; // ended meanwhile
      }
    });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The sum of a counter's samples whose labels include `labels`, in Prometheus's text format. */
function sampleSum(text: string, name: string, labels: string): number {
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) && line.includes(labels))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}

if (!process.env.TEST_DATABASE_URL) {
  console.info("web processes: skipped, TEST_DATABASE_URL is not set (several processes need a PostgreSQL server; the embedded database is one process's).");
  describe("several web processes", () => {
    it.skip("needs PostgreSQL: set TEST_DATABASE_URL (npm test does when a server answers on 127.0.0.1:5432)", () => {});
  });
} else {
  describe("several web processes on one port (PostgreSQL, production build)", () => {
    let server: ConsoleServer;
    const readyLines = () => server.output().split("› Ready on").length - 1;
    const scrape = async () => {
      const answer = await rawRequest(server.url, "/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(answer.status, answer.body).toBe(200);
      return answer.body;
    };

    beforeAll(async () => {
      server = await startConsole("postgres", { users: [ADMIN], env: { WEB_CONCURRENCY: "2", METRICS_TOKEN, JOB_POLL_SECONDS: "1", LOG_LEVEL: "info", TOKEN_REQUESTS_PER_MINUTE: String(TOKEN_LIMIT) } });
      await until(() => childrenOf(server.pid).length === 2 && readyLines() === 2, "both processes to listen", 90_000).catch((error: Error) => {
        throw new Error(`${error.message}: children ${JSON.stringify(childrenOf(server.pid))}, output:\n${server.output()}`);
      });
    });
    afterAll(async () => server?.close());

    it("shares the requests among its processes, and /metrics counts every process's", async () => {
      const counted = (text: string) => sampleSum(text, "console_http_requests_total", 'route="/api/health"');
      const before = counted(await scrape());
      // A connection each: the supervisor hands connections to the processes in turn.
      const answers = await Promise.all(Array.from({ length: 40 }, () => rawRequest(server.url, "/api/health")));
      expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
      const text = await scrape();
      expect(counted(text) - before).toBe(40);
      // Each process's own series are in the sum: their resident memory adds up to more than one's.
      expect(text).toMatch(/^process_resident_memory_bytes \d/m);
      // The queue's counts are the database's: given once, not added up.
      expect(text.match(/^# TYPE console_jobs gauge$/gm)).toHaveLength(1);
      // Both processes answered requests (each logs its own pid).
      const pids = new Set(
        server
          .output()
          .split("\n")
          .filter((l) => l.startsWith("{") && l.includes('"route":"/api/health"'))
          .map((l) => (JSON.parse(l) as { pid: number }).pid),
      );
      expect([...pids].sort()).toEqual(childrenOf(server.pid).sort());
    });

    it("holds a token to its requests a minute across both processes", async () => {
      const admin = new Browser(server.url, "127.0.0.72");
      expect((await admin.signIn(ADMIN.email, PASSWORD)).status).toBe(200);
      const expires_at = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const made = await admin.request("/api/v1/tokens", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "loop", scope: "read", expires_at }) });
      expect(made.status, made.body).toBe(201);
      const { token } = JSON.parse(made.body) as { token: string };
      // A connection each, so the supervisor hands them to both processes in turn.
      const answers = await Promise.all(
        Array.from({ length: 3 * TOKEN_LIMIT }, () => rawRequest(server.url, "/api/v1/branches", { headers: { authorization: `Bearer ${token}` } })),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(TOKEN_LIMIT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(2 * TOKEN_LIMIT);
      const pids = new Set(
        server
          .output()
          .split("\n")
          .filter((l) => l.startsWith("{") && l.includes('"route":"/api/v1/branches"'))
          .map((l) => (JSON.parse(l) as { pid: number }).pid),
      );
      expect(pids.size).toBe(2);
    });

    it("runs an export on its first process, the one that works the queue", async () => {
      const admin = new Browser(server.url, "127.0.0.71");
      expect((await admin.signIn(ADMIN.email, PASSWORD)).status).toBe(200);
      const requested = await admin.request("/api/v1/subscribers/export", { method: "POST" });
      expect(requested.status, requested.body).toBe(202);
      const done = await until(async () => {
        const status = JSON.parse((await admin.request("/api/v1/subscribers/export")).body) as { downloadable_file_status: string };
        return status.downloadable_file_status === "completed" ? status : null;
      }, "the export to complete", 60_000).catch((error: Error) => {
        throw new Error(`${error.message}:\n${server.output().split("\n").filter((l) => !l.includes('"msg":"request"')).join("\n")}`);
      });
      expect(done.downloadable_file_status).toBe("completed");
      // Worked by the first process: the only one whose lines tell of jobs.
      const jobPids = new Set(server.output().split("\n").filter((l) => l.includes("\"msg\":\"job started\"")).map((l) => (JSON.parse(l) as { pid: number }).pid));
      expect(jobPids.size).toBe(1);
    });

    it("starts a process again when one dies, while the other goes on serving", async () => {
      const [victim, survivor] = childrenOf(server.pid);
      process.kill(victim!, "SIGKILL");
      // Once the supervisor knows (a connection handed over in the moment before is lost with the
      // process: Node's cluster cannot take it back; decision 36), the other serves every request.
      await until(() => server.output().includes(`(pid ${victim}) ended (SIGKILL): starting another`), "the supervisor to notice");
      for (let i = 0; i < 10; i++) {
        const answer = await rawRequest(server.url, "/api/health");
        expect(answer.status, `request ${i}`).toBe(200);
      }
      const replaced = await until(() => {
        const now = childrenOf(server.pid);
        return now.length === 2 && !now.includes(victim!) && now.includes(survivor!) ? now : null;
      }, "a new process").catch((error: Error) => {
        throw new Error(`${error.message}: ${JSON.stringify(childrenOf(server.pid))}:\n${server.output().split("\n").filter((l) => !l.includes('"msg":"request"')).join("\n")}`);
      });
      await until(() => readyLines() === 3, "the new process to listen", 60_000);
      expect(replaced).toHaveLength(2);
    });

    it("stops every process on SIGTERM", async () => {
      const children = childrenOf(server.pid);
      expect(children).toHaveLength(2);
      const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)));
      process.kill(server.pid, "SIGTERM");
      expect(await exited).toBe(0);
      await until(() => children.every((pid) => !alive(pid)), "the processes to end", 15_000);
      await expect(rawRequest(server.url, "/api/health")).rejects.toThrow(/ECONNREFUSED/);
    });
  });
}
