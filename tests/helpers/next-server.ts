import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { toolEnv } from "../../tools/env";

// A real start of the production build (`npm run serve`: server.ts in front of Next), for the
// HTTP-level, outage and load tests: the requests go through everything a user's do (the
// server's own checks, proxy, pages, route handlers, the in-process export worker). Never builds:
// a missing build is an error that says what to run.

export type NextServer = {
  url: string;
  /** The pid of the Node process that serves (the one whose memory the load test tracks). */
  pid: number;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
};

/** The server ended before it was ready; `portTaken` when another process had its port. */
export class ServerExited extends Error {
  readonly portTaken: boolean;
  constructor(
    readonly exitCode: number | null,
    readonly output: string,
  ) {
    super(`the server exited (${exitCode}):\n${output}`);
    this.portTaken = /EADDRINUSE/.test(output);
  }
}

export const projectRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

export function requireBuild(appDir: string) {
  if (!fs.existsSync(path.join(appDir, ".next", "BUILD_ID"))) {
    throw new Error(`No production build in ${appDir}/.next: run \`npx next build\` first (it is not built here, builds are slow).`);
  }
}

export async function startNextServer(options: {
  port: number;
  env: Record<string, string>;
  appDir?: string;
  timeoutMs?: number;
}): Promise<NextServer> {
  const appDir = options.appDir ?? toolEnv(["APP_DIR"]).APP_DIR ?? projectRoot;
  requireBuild(appDir);
  // `node --import tsx server.ts` serves in this very process (no child): its pid is the server's.
  const child = spawn(process.execPath, ["--import", "tsx/esm", "server.ts"], {
    cwd: appDir,
    // One process unless a test asks for more: its pid is then the one that serves.
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(options.port), WEB_CONCURRENCY: "1", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let spawnError: Error | undefined;
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  child.once("error", (error) => (spawnError = error));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // "close" comes once the child's output has been read to its end (after "exit", possibly).
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (spawnError) throw new Error(`the server could not be started: ${spawnError.message}`);
    if (child.exitCode !== null || child.signalCode !== null) {
      await Promise.race([closed, new Promise((r) => setTimeout(r, 2_000))]);
      throw new ServerExited(child.exitCode, output);
    }
    // Ready when this child says it listens and answers: a port taken in between by another
    // test's server must not pass for this one.
    if (output.includes("› Ready on")) {
      try {
        const health = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) });
        await health.body?.cancel();
        break;
      } catch {
        // not answering yet
      }
    }
    if (Date.now() > end) {
      child.kill("SIGKILL");
      throw new Error(`the server did not answer within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid!,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Signs in through next-auth's credentials endpoint; returns the Cookie header to send. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ email, password, csrfToken, json: "true" }),
    redirect: "manual",
  });
  keep(response);
  const session = [...jar.keys()].find((k) => k.endsWith("next-auth.session-token"));
  if (!session) throw new Error(`sign-in as ${email} failed (HTTP ${response.status})`);
  return `${session}=${jar.get(session)}`;
}

/** Resident memory of a process in MB (VmRSS of /proc/<pid>/status). */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  return kb / 1024;
}
