import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { toolEnv } from "../../tools/env";

// A PostgreSQL server of the test's own (initdb in a temporary folder, its own port), so that a
// test can stop and restart it without touching the shared server on 5432. initdb and pg_ctl
// refuse to run as root: as root we run them as the `postgres` user through runuser.
//
// Never skipped: when the binaries are missing this throws with what to install.

export const PG_BIN = toolEnv(["PG_BIN"]).PG_BIN;

export type PgCluster = {
  port: number;
  dir: string;
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  start(): void;
  /** `fast` ends every connection (what an operator's restart does); `immediate` is a crash. */
  stop(mode?: "fast" | "immediate"): void;
  running(): boolean;
  /** Stops (if needed) and deletes the folder. */
  destroy(): void;
  log(): string;
};

function requireBinaries() {
  const missing = ["initdb", "pg_ctl", "postgres"].filter((b) => !fs.existsSync(path.join(PG_BIN, b)));
  if (missing.length > 0) {
    throw new Error(
      `PostgreSQL server binaries not found in ${PG_BIN} (missing: ${missing.join(", ")}). ` +
        `Install them (Debian: apt-get install postgresql-15) or set PG_BIN to their folder. ` +
        `This test needs a PostgreSQL server of its own to stop and restart; it is not skipped.`,
    );
  }
}

const isRoot = () => process.getuid?.() === 0;

function run(bin: string, args: string[], what: string) {
  const command = isRoot() ? "runuser" : path.join(PG_BIN, bin);
  const argv = isRoot() ? ["-u", "postgres", "--", path.join(PG_BIN, bin), ...args] : args;
  const result = spawnSync(command, argv, { encoding: "utf8", timeout: 60_000 });
  if (result.error) throw new Error(`${what}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

function tryPort(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = server.address() as net.AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A port nothing listens on: any the system gives, or with TEST_PORTS=FIRST-LAST one of that
 * range (for machines where each person running tests keeps to ports of their own).
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.TEST_PORTS ?? "");
  if (!range) return tryPort(0);
  const [first, last] = [Number(range[1]), Number(range[2])];
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = first + Math.floor(Math.random() * (last - first + 1));
    try {
      return await tryPort(port);
    } catch {
      // taken: try another
    }
  }
  throw new Error(`No free port in TEST_PORTS=${process.env.TEST_PORTS}`);
}

export async function createCluster(): Promise<PgCluster> {
  requireBinaries();
  if (isRoot() && spawnSync("id", ["-u", "postgres"]).status !== 0) {
    throw new Error("Running as root, but there is no `postgres` user to run initdb/pg_ctl as (they refuse root).");
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pg-cluster-"));
  if (isRoot()) spawnSync("chown", ["postgres:postgres", dir]);
  const data = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  const port = await freePort();
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"], "initdb");
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dir}`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=100",
  ].join(" ");
  let running = false;
  const cluster: PgCluster = {
    port,
    dir,
    url: (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start() {
      run("pg_ctl", ["-D", data, "-o", options, "-l", logFile, "-w", "-t", "30", "start"], "pg_ctl start");
      running = true;
    },
    stop(mode = "fast") {
      run("pg_ctl", ["-D", data, "-m", mode, "-w", "-t", "30", "stop"], "pg_ctl stop");
      running = false;
    },
    running: () => running,
    destroy() {
      if (running) {
        try {
          cluster.stop("immediate");
        } catch {
          /* already gone */
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : ""),
  };
  // A test that dies half-way must not leave a server running.
  process.once("exit", () => cluster.destroy());
  return cluster;
}
