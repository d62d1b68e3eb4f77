import "server-only";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { within } from "@/lib/db/sql";
import { runsWorker } from "@/lib/jobs/queue";
import { isDatabaseBusy } from "@/lib/db/errors";
import { storage, StorageUnavailableError, type StorageProblem } from "@/lib/storage";
import { storageProblem } from "@/lib/storage/problems";
import { isDatabaseUnavailable } from "./unavailable";
import { logError } from "@/lib/telemetry/log";

// What GET /api/health reports (docs/API.md): anyone gets the status only; the details are for an
// administrator or the operator's monitor (lib/health/access.ts). Never host names or error messages.

type DatabaseHealth = {
  /** busy: the server is there, but every connection of this process is in use. */
  status: "up" | "busy" | "down";
  kind: "postgres" | "pglite";
  latency_ms: number | null;
  reason?: "unreachable" | "timeout" | "error";
};

type QueueHealth = {
  /** stalled: exports wait and no worker has done the queue's maintenance lately. */
  status: "up" | "stalled" | "not_started" | "unknown";
  worker: "in_process" | "separate";
  queued: number;
  running: number;
  oldest_queued_seconds: number | null;
  worker_seen_seconds_ago: number | null;
};

type StorageHealth = {
  status: "up" | "down";
  kind: "local" | "s3";
  latency_ms: number | null;
  reason?: StorageProblem;
};

/** Not the storage: a load balancer taking every instance out for a missing bucket would stop the whole console. */
type PublicHealth = { status: "ok" | "unavailable" };

export type HealthReport = {
  status: "ok" | "degraded" | "unavailable";
  checked_at: string;
  database: DatabaseHealth;
  storage: StorageHealth;
  queue: QueueHealth;
};

const TIMEOUT_MS = 3_000;

class Timeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

type Row = Record<string, unknown>;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

type Probe =
  | { up: true; kind: DatabaseHealth["kind"]; latency_ms: number; query: <T extends Row>(text: string) => Promise<T[]> }
  | { up: "busy"; kind: DatabaseHealth["kind"] }
  | { up: false; kind: DatabaseHealth["kind"]; reason: NonNullable<DatabaseHealth["reason"]> };

async function probe(): Promise<Probe> {
  let kind: DatabaseHealth["kind"] = config().DATABASE_URL ? "postgres" : "pglite";
  let query: (<T extends Row>(text: string) => Promise<T[]>) | null = null;
  let busy = () => false;
  const started = performance.now();
  try {
    await withTimeout(
      (async () => {
        const database = await db();
        kind = database.target.kind;
        busy = database.busy;
        query = <T extends Row>(text: string) => within(database.prisma).query<T>(text);
        await query("SELECT 1");
      })(),
      TIMEOUT_MS,
    );
  } catch (error) {
    // No free connection in time is not an outage: the error page must not say the database is down.
    if ((error instanceof Timeout || isDatabaseBusy(error)) && busy()) return { up: "busy", kind };
    const reason = error instanceof Timeout ? "timeout" : isDatabaseUnavailable(error) ? "unreachable" : "error";
    if (reason === "error") logError(error, "health check: database query failed");
    return { up: false, kind, reason };
  }
  return { up: true, kind, latency_ms: Math.round(performance.now() - started), query: query! };
}

export const checkUp = async (): Promise<PublicHealth> => ({ status: (await probe()).up === false ? "unavailable" : "ok" });

async function checkStorage(): Promise<StorageHealth> {
  let kind: StorageHealth["kind"] = "local";
  const started = performance.now();
  try {
    const store = storage();
    kind = store.kind === "s3" ? "s3" : "local";
    await withTimeout(store.check(), TIMEOUT_MS);
    return { status: "up", kind, latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    const reason = error instanceof Timeout ? "timeout" : StorageUnavailableError.is(error) ? error.reason : storageProblem(error);
    if (reason === "error") logError(error, "health check: storage check failed");
    return { status: "down", kind, latency_ms: null, reason };
  }
}

export async function checkHealth(): Promise<HealthReport> {
  const worker: QueueHealth["worker"] = runsWorker() ? "in_process" : "separate";
  const checked_at = new Date().toISOString();
  const [database, files] = await Promise.all([probe(), checkStorage()]);
  const unknown: QueueHealth = { status: "unknown", worker, queued: 0, running: 0, oldest_queued_seconds: null, worker_seen_seconds_ago: null };
  if (database.up !== true) {
    const busy = database.up === "busy";
    return {
      status: busy ? "degraded" : "unavailable",
      checked_at,
      database: busy ? { status: "busy", kind: database.kind, latency_ms: null } : { status: "down", kind: database.kind, latency_ms: null, reason: database.reason },
      storage: files,
      queue: unknown,
    };
  }
  const { kind, latency_ms, query } = database;
  let queue: QueueHealth;
  try {
    queue = await withTimeout(checkQueue(query, worker), TIMEOUT_MS);
  } catch (error) {
    logError(error, "health check: queue query failed");
    queue = unknown;
  }
  const queueOk = queue.status === "up" || queue.status === "not_started";
  return {
    status: queueOk && files.status === "up" ? "ok" : "degraded",
    checked_at,
    database: { status: "up", kind, latency_ms },
    storage: files,
    queue,
  };
}

async function checkQueue(query: <T extends Row>(text: string) => Promise<T[]>, worker: QueueHealth["worker"]): Promise<QueueHealth> {
  const [exports] = await query(
    `SELECT count(*)::int AS queued,
            count(*) FILTER (WHERE started_at IS NOT NULL)::int AS running,
            EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS oldest
     FROM subscriber_exports WHERE status = 'in_queue'`,
  );
  const [boss] = await query(`SELECT to_regclass('pgboss.version') IS NOT NULL AS started`);
  let seen: number | null = null;
  if (boss?.started) {
    const [version] = await query(`SELECT EXTRACT(EPOCH FROM now() - maintained_on)::float8 AS seen FROM pgboss.version LIMIT 1`);
    seen = num(version?.seen);
  }
  const queued = Number(exports?.queued ?? 0);
  // Three missed maintenance rounds while exports wait: nobody is generating them.
  const silent = seen === null || seen > config().JOB_MAINTENANCE_SECONDS * 3 + 30;
  const oldest = num(exports?.oldest);
  return {
    status: queued > 0 && silent ? "stalled" : boss?.started ? "up" : "not_started",
    worker,
    queued,
    running: Number(exports?.running ?? 0),
    oldest_queued_seconds: oldest === null ? null : Math.round(oldest),
    worker_seen_seconds_ago: seen === null ? null : Math.round(seen),
  };
}
