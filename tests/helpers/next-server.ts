import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

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
  const appDir = options.appDir ?? process.env.APP_DIR ?? projectRoot;
  requireBuild(appDir);
  // `node --import tsx server.ts` serves in this very process (no child): its pid is the server's.
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: appDir,
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(options.port), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  const end = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    try {
      await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) });
      break;
    } catch {
      if (Date.now() > end) {
        child.kill("SIGKILL");
        throw new Error(`the server did not answer within ${options.timeoutMs ?? 60_000} ms:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
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
