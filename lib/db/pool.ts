import net from "node:net";
import pg from "pg";
import { ClientGoneError, querySignal } from "./scope";

// The console's pg pools (Prisma's, through @prisma/adapter-pg, and the export's): a pg.Pool
// whose `query` cancels its statement in PostgreSQL when the request it serves is aborted (the
// client went away). Without this an abandoned request's statement kept its connection and its
// CPU for as long as it ran (issue 19: 3 s after the client had gone).
//
// How: inside `withQuerySignal` (lib/db/scope.ts) a statement checks out its own connection,
// and when the request is aborted and the statement is still running a short grace later
// (CANCEL_GRACE_MS), a CancelRequest (the protocol's own message, as psql's Ctrl-C sends: a fresh
// socket carrying the backend's pid and secret key, no authentication, no pool slot) stops it;
// the statement then fails with SQLSTATE 57014 and its connection is closed rather than reused
// (a cancel that arrives late must not hit the next user's statement).
// Outside a request's scope (pages, scripts, the worker) `query` is pg's own.

type Query = (...args: unknown[]) => Promise<unknown>;

/** A pg.Pool (Prisma's adapter checks `instanceof pg.Pool`) with cancellable statements. */
export function consolePool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  const plain = pool.query.bind(pool) as unknown as Query;
  const target = cancelTarget(config);
  const query: Query = (...args) => {
    const signal = querySignal();
    // Callback and stream forms are pg's own business (nothing of ours uses them with a signal).
    if (!signal || args.some((a) => typeof a === "function") || isSubmittable(args[0])) return plain(...args);
    return cancellable(pool, target, signal, args[0], args[1]);
  };
  Object.assign(pool, { query });
  return pool;
}

function isSubmittable(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { submit?: unknown }).submit === "function";
}

/**
 * How long a statement of a request whose client went away may still run before it is cancelled.
 * Most finish within it (a list's statements take milliseconds): their connection then goes back
 * to the pool as usual. A cancel costs its connection (closed, not reused: the cancel might reach
 * the next statement), and a client closing a page or a connection with requests in flight would
 * otherwise make the pool open a new one for each statement it had running.
 */
const CANCEL_GRACE_MS = 100;

/** A statement running for a request: on the request's abort it gets its grace, then its cancel. */
type Running = { client: pg.PoolClient; target: CancelTarget; grace?: ReturnType<typeof setTimeout>; cancelled: boolean };

/**
 * The statements running for each request's signal, with one abort listener per signal (not one
 * per statement: an AbortSignal's listeners are costly to add and remove, and a list answer
 * sends three or four statements).
 */
const runningBySignal = new WeakMap<AbortSignal, Set<Running>>();

function runningFor(signal: AbortSignal): Set<Running> {
  let running = runningBySignal.get(signal);
  if (!running) {
    const set = (running = new Set());
    runningBySignal.set(signal, set);
    signal.addEventListener(
      "abort",
      () => {
        for (const r of set) {
          r.grace = setTimeout(() => {
            r.cancelled = true;
            sendCancel(r.target, r.client);
          }, CANCEL_GRACE_MS);
        }
      },
      { once: true },
    );
  }
  return running;
}

async function cancellable(pool: pg.Pool, target: CancelTarget, signal: AbortSignal, text: unknown, values: unknown) {
  if (signal.aborted) throw new ClientGoneError();
  const client = await pool.connect();
  if (signal.aborted) {
    client.release();
    throw new ClientGoneError();
  }
  let failure: Error | undefined;
  // A checked-out client's "error" event (the server went away) with no listener would crash the process.
  const onError = (error: Error) => void (failure ??= error);
  const running = runningFor(signal);
  const entry: Running = { client, target, cancelled: false };
  client.on("error", onError);
  running.add(entry);
  try {
    return await (client.query as unknown as Query)(text, values);
  } catch (error) {
    failure ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    running.delete(entry);
    clearTimeout(entry.grace);
    client.off("error", onError);
    // As pg-pool's own query does, a client whose statement failed is closed; so is one that a
    // cancel may still be on its way to.
    client.release(failure ?? (entry.cancelled ? new Error("cancelled") : undefined));
  }
}

type CancelTarget = { host: string; port: number };

/** Where the cancel goes: the pool's own server (host and port as pg parses them from the config). */
function cancelTarget(config: pg.PoolConfig): CancelTarget {
  const parsed = new pg.Client(config) as unknown as { host?: string; port?: number };
  return { host: parsed.host || "localhost", port: parsed.port || 5432 };
}

/**
 * PostgreSQL's CancelRequest: 16 bytes on a new connection (length, the code 80877102, the
 * backend's pid and secret key). The server answers nothing and closes the socket. Sent in
 * plain text: a cancel request is not subject to authentication or pg_hba's SSL rules.
 */
function sendCancel(target: CancelTarget, client: pg.PoolClient) {
  const { processID, secretKey } = client as unknown as { processID?: number | null; secretKey?: number | null };
  if (typeof processID !== "number" || typeof secretKey !== "number") return;
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(80877102, 4);
  packet.writeInt32BE(processID, 8);
  packet.writeInt32BE(secretKey | 0, 12);
  const socket = target.host.startsWith("/")
    ? net.connect(`${target.host}/.s.PGSQL.${target.port}`)
    : net.connect(target.port, target.host);
  socket.on("error", () => {}); // best effort: the statement timeout still bounds it
  socket.setTimeout(5_000, () => socket.destroy());
  socket.once("connect", () => socket.end(packet));
}
