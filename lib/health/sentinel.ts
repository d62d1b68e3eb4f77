import pg from "pg";
import { processWide } from "@/lib/process-wide";
import { isDatabaseUnavailable } from "./unavailable";
import { log } from "@/lib/telemetry/log";

// One idle connection that tells the proxy, without a query per request, whether PostgreSQL is
// there (docs/decisions/0006-database-outage-sentinel.md). Only a shortcut: unknown and errors not
// about reachability count as up, so the sentinel cannot take a healthy site down.

const PING_MS = 5_000;
const PING_TIMEOUT_MS = 2_000;
const RECONNECT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 3_000;

type State = {
  url: string;
  up: boolean;
  since: number;
  client: pg.Client | null;
  connecting: boolean;
  timer: ReturnType<typeof setTimeout> | null;
};

/** The process's one sentinel (the proxy's copy of this module and the pages' share it). */
const sentinel = processWide("db-sentinel", () => ({ state: undefined as State | undefined }));

function schedule(state: State, ms: number, run: () => void) {
  if (state.timer) clearTimeout(state.timer);
  state.timer = setTimeout(() => {
    state.timer = null;
    run();
  }, ms);
  state.timer.unref?.();
}

function setUp(state: State, up: boolean) {
  if (state.up === up) return;
  state.up = up;
  state.since = Date.now();
  if (up) log.info("database sentinel: the database is reachable again");
  else log.warn("database sentinel: the database is unreachable; pages answer 503 until it is back");
}

function lost(state: State, client: pg.Client, error: unknown) {
  if (state.client !== client) return;
  state.client = null;
  client.removeAllListeners();
  client.on("error", () => {}); // late socket errors of a client we gave up
  client.end().catch(() => {});
  // A connection that ended without an error (or with one about reachability) means the server went away.
  if (!error || isDatabaseUnavailable(error)) setUp(state, false);
  schedule(state, RECONNECT_MS, () => connect(state));
}

function connect(state: State) {
  if (state.connecting || state.client) return;
  state.connecting = true;
  const client = new pg.Client({
    connectionString: state.url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: PING_TIMEOUT_MS,
    keepAlive: true,
    application_name: "console-sentinel",
  });
  client.on("error", (error) => lost(state, client, error));
  client.on("end", () => lost(state, client, null));
  client
    .connect()
    .then(() => {
      state.client = client;
      setUp(state, true);
      schedule(state, PING_MS, () => ping(state));
    })
    .catch((error: unknown) => {
      client.removeAllListeners();
      client.on("error", () => {});
      client.end().catch(() => {});
      if (isDatabaseUnavailable(error)) setUp(state, false);
      schedule(state, RECONNECT_MS, () => connect(state));
    })
    .finally(() => {
      state.connecting = false;
    });
}

function ping(state: State) {
  const client = state.client;
  if (!client) return connect(state);
  client
    .query("SELECT 1")
    .then(() => schedule(state, PING_MS, () => ping(state)))
    // SELECT 1 fails only when the connection is gone or the server stopped answering.
    .catch(() => lost(state, client, new Error("Connection terminated: the sentinel's ping failed")));
}

/** Whether the server at `url` is reachable, as far as the sentinel knows; returns at once, never throws. */
export function databaseReachable(url: string): boolean {
  let state = sentinel.state;
  if (!state || state.url !== url) {
    state = { url, up: true, since: Date.now(), client: null, connecting: false, timer: null };
    sentinel.state = state;
    connect(state);
  }
  return state.up;
}
