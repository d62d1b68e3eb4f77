// The app under test: the benchmark's build served as `npm run serve` serves it (server.ts in
// front of Next; `next start` for an app without one, the framework floor's serve.mjs) on a free port of 127.0.0.1, and a
// signed-in session on it (next-auth's credentials endpoint, as e2e/fixtures.ts does).
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export type Server = {
  url: string;
  pid: number;
  stop(): Promise<void>;
  log(): string;
  /** How the process ended ("exit code 1", "signal SIGKILL"), or null while it runs. */
  ended(): string | null;
};

/** The servers this process started and has not stopped: ended with it, however it ends. */
const running = new Set<ChildProcess>();
let cleanupInstalled = false;

function endWithThisProcess(child: ChildProcess) {
  running.add(child);
  child.once("exit", () => running.delete(child));
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  // An interrupted benchmark (Ctrl-C, a kill) left its server serving, and the next run measured
  // beside it. "exit" handlers run on process.exit; a signal's default ends the process without.
  process.once("exit", () => {
    for (const c of running) c.kill("SIGTERM");
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => process.exit(128 + os.constants.signals[signal]));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Starts the build in `dir` against the database of `env` and waits until `readyPath` answers (on `port`, or a free one). */
export async function startServer(dir: string, env: Record<string, string>, nodeArgs: string[] = [], readyPath = "/login", fixedPort?: number): Promise<Server> {
  const port = fixedPort ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const exportDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-bench-exports-"));
  // The framework floor's serve.mjs is `next start` in WEB_CONCURRENCY processes.
  const nextStart = fs.existsSync(path.join(dir, "serve.mjs")) ? path.join(dir, "serve.mjs") : path.join(dir, "node_modules/next/dist/bin/next");
  const entry = fs.existsSync(path.join(dir, "server.ts"))
    ? ["--import", "tsx/esm", "server.ts"]
    : [nextStart, "start", "-H", "127.0.0.1", "-p", String(port)];
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, ...entry],
    {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        NEXTAUTH_URL: url,
        // A random secret per run: the sessions of a benchmark are worth nothing afterwards.
        NEXTAUTH_SECRET: crypto.randomBytes(32).toString("base64url"),
        JOB_WORKER: "off",
        STORAGE_DIR: exportDir,
        HOST: "127.0.0.1",
        PORT: String(port),
        ...env,
      },
    },
  );
  endWithThisProcess(child);
  let output = "";
  child.stdout!.on("data", (d) => (output = (output + d).slice(-20_000)));
  child.stderr!.on("data", (d) => (output = (output + d).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(exportDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output}`);
    try {
      const r = await fetch(`${url}${readyPath}`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next start did not answer within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const ended = () => (child.signalCode ? `signal ${child.signalCode}` : child.exitCode !== null ? `exit code ${child.exitCode}` : null);
  return { url, pid: child.pid!, stop, log: () => output, ended };
}

/** Cookies of a response as `name=value` pairs (what a browser would send back). */
function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((c) => c.split(";")[0]!);
}

/** Signs in and returns the Cookie header of the session. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = cookiesOf(csrf);
  const response = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({ email, password, csrfToken, json: "true" }),
  });
  const session = cookiesOf(response).filter((c) => c.includes("next-auth.session-token="));
  if (response.status >= 400 || !session.length) throw new Error(`Sign-in failed (${response.status}).`);
  return session.join("; ");
}
