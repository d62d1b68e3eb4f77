import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { hashPassword } from "@/lib/auth/password";
import { fromPGlite } from "@/lib/db/client";
import { endPool } from "@/lib/db/end-pool";
import { ServerExited, startNextServer, type NextServer } from "./next-server";
import { freePort } from "./pg-cluster";
import { migratedPGlite, migratedPostgres } from "./templates";
import type { TestDbKind } from "./db";

// The production build served as `npm run serve` serves it, on a database of its own with the
// users a test asks for: the HTTP-level suites (tests/http) talk to it as an attacker would,
// with real cookies and raw requests, and no mocked session.

export type TestUser = { email: string; password: string; role: "admin" | "staff"; name?: string };

export type ConsoleServer = NextServer & {
  kind: TestDbKind;
  /** The session-signing secret the server was started with (to mint tokens an attacker could not). */
  secret: string;
  /** SQL on the server's database: PostgreSQL only (PGlite is held by the server's process). */
  sql: ((text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>) | null;
  /** The server's database URL: PostgreSQL only (a test's own connection, to hold a lock say). */
  databaseUrl: string | null;
  close(): Promise<void>;
};

export type ConsoleOptions = {
  users?: TestUser[];
  /** Settings; a function is given the server's origin before it starts (an identity provider must know it). */
  env?: Record<string, string> | ((origin: string) => Promise<Record<string, string>>);
  /** Statements run on the new database before the server starts (rows to list, say). */
  seed?: (run: (text: string) => Promise<unknown>) => Promise<void>;
};

export async function startConsole(kind: TestDbKind, options: ConsoleOptions = {}): Promise<ConsoleServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "console-http-"));
  const users = await Promise.all(
    (options.users ?? []).map(async (u) => ({ email: u.email, name: u.name ?? u.email.split("@")[0]!, role: u.role, password_hash: await hashPassword(u.password) })),
  );
  let env: Record<string, string>;
  let sql: ConsoleServer["sql"] = null;
  let databaseUrl: string | null = null;
  let cleanup: () => Promise<void>;
  if (kind === "pglite") {
    const pgliteDir = path.join(dir, "pglite");
    const pglite = await migratedPGlite(pgliteDir);
    const database = fromPGlite(pglite, { kind: "pglite", dir: pgliteDir }, async () => {
      await pglite.close();
      pglite.release();
    });
    if (users.length) await database.prisma.user.createMany({ data: users });
    if (options.seed) await options.seed((text) => pglite.exec(text));
    await database.close();
    env = { DATABASE_URL: "", PGLITE_DIR: pgliteDir };
    cleanup = async () => {};
  } else {
    const created = await migratedPostgres(process.env.TEST_DATABASE_URL!);
    const pool = new pg.Pool({ connectionString: created.url, max: 2 });
    // An idle connection the server ends (a test stopping PostgreSQL's side of it) is no crash.
    pool.on("error", () => {});
    if (users.length) {
      for (const u of users) {
        await pool.query(`INSERT INTO users (email, name, role, password_hash, updated_at) VALUES ($1, $2, $3, $4, now())`, [u.email, u.name, u.role, u.password_hash]);
      }
    }
    sql = async (text, params) => (await pool.query(text, params)).rows;
    if (options.seed) await options.seed((text) => pool.query(text));
    databaseUrl = created.url;
    env = { DATABASE_URL: created.url, DATABASE_SENTINEL: "off" };
    cleanup = async () => {
      await endPool(pool); // every connection closed before the forced drop
      await created.drop();
    };
  }
  const secret = crypto.randomBytes(32).toString("base64url");
  let server: NextServer | undefined;
  try {
    // The port is free when asked for, but another process may take it before the server
    // listens: then it is started again on another.
    for (let attempt = 1; !server; attempt++) {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const extra = typeof options.env === "function" ? await options.env(origin) : options.env;
      try {
        server = await startNextServer({
          port,
          env: {
            NEXTAUTH_SECRET: secret,
            NEXTAUTH_URL: origin,
            STORAGE_DIR: path.join(dir, "files"),
            ...env,
            ...extra,
          },
        });
      } catch (error) {
        if (!(error instanceof ServerExited && error.portTaken && attempt < 3)) throw error;
      }
    }
  } catch (error) {
    await cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const started = server;
  return {
    ...started,
    kind,
    secret,
    sql,
    databaseUrl,
    async close() {
      await started.stop();
      await cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string; setCookies: string[] };

/**
 * One raw HTTP request (node:http: any method, any path bytes, headers repeated or hostile),
 * optionally from another loopback address (127.0.0.2…) to be another caller.
 */
export function rawRequest(
  baseUrl: string,
  target: string,
  init: { method?: string; headers?: Record<string, string | string[]>; body?: string | Buffer; localAddress?: string } = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: init.method ?? "GET",
        path: target,
        headers: { ...(init.body !== undefined ? { "content-length": String(Buffer.byteLength(init.body)) } : {}), ...init.headers },
        localAddress: init.localAddress,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const set = res.headers["set-cookie"] ?? [];
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"), setCookies: set });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

/** A browser's cookie jar over rawRequest: keeps what the server sets, sends it back. */
export class Browser {
  readonly jar = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    readonly localAddress?: string,
  ) {}

  get cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  keep(setCookies: string[]) {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1);
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  async request(target: string, init: { method?: string; headers?: Record<string, string | string[]>; body?: string | Buffer } = {}) {
    const headers = { ...(this.jar.size ? { cookie: this.cookie } : {}), ...init.headers };
    const response = await rawRequest(this.baseUrl, target, { ...init, headers, localAddress: this.localAddress });
    this.keep(response.setCookies);
    return response;
  }

  sessionToken(): string | undefined {
    return [...this.jar].find(([name]) => name.endsWith("next-auth.session-token"))?.[1];
  }

  async csrf(): Promise<string> {
    const response = await this.request("/api/auth/csrf");
    return (JSON.parse(response.body) as { csrfToken: string }).csrfToken;
  }

  /** Signs in as next-auth's client does (a form with json=true). */
  async signIn(email: string, password: string, extra: Record<string, string> = {}) {
    const csrfToken = await this.csrf();
    return this.request("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password, csrfToken, json: "true", ...extra }).toString(),
    });
  }
}
