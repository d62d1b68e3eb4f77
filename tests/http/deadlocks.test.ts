import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LOCK_EMAIL, LOCK_MOBILE } from "@/lib/subscribers/duplicates";
import { Browser, startConsole, type ConsoleServer, type RawResponse } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";

// A merge, a "not duplicates" and a creation that PostgreSQL aborts to break a deadlock are run
// again, and answer as if nothing had happened (never a 500), against the production build on
// PostgreSQL (docs/decisions/0035-deadlocks-retried-where-transactions-open.md). Each deadlock is
// made on purpose: the test's own transaction takes the locks another writer takes, in that
// writer's order, holding the one the request needs next; once the request waits for it, the test
// asks for one the request holds. The request's backend began waiting first, so its
// deadlock_timeout (the server's, 1 s) runs out first and the detector aborts its transaction; the
// test's own is set far longer, so the test's side is never the one aborted.

const PASSWORD = "deadlock-http-password-1";
const ADMIN = { email: "admin@deadlock.test", password: PASSWORD, role: "admin" as const, name: "Dee Admin" };

type Json = Record<string, unknown>;

describe.runIf(testDbKinds().includes("postgres"))("PostgreSQL: writes aborted by the deadlock detector are run again (production build)", () => {
  let server: ConsoleServer;
  let admin: Browser;
  let locker: pg.Client;
  let monitor: pg.Client;

  beforeAll(async () => {
    server = await startConsole("postgres", { users: [ADMIN] });
    admin = new Browser(server.url, "127.0.0.71");
    expect((await admin.signIn(ADMIN.email, PASSWORD)).status).toBe(200);
    locker = new pg.Client({ connectionString: server.databaseUrl! });
    await locker.connect();
    monitor = new pg.Client({ connectionString: server.databaseUrl! });
    await monitor.connect();
  });
  afterEach(async () => {
    await locker.query("ROLLBACK").catch(() => {});
  });
  afterAll(async () => {
    await locker?.end();
    await monitor?.end();
    await server?.close();
  });

  const send = (method: string, path: string, body: unknown) =>
    admin.request(path, { method, headers: { "content-type": "application/json", origin: server.url }, body: JSON.stringify(body) });
  const parse = (answer: RawResponse) => JSON.parse(answer.body) as Json;
  let made = 0;
  const create = async (email: string, mobile: string) => {
    made++;
    const answer = await send("POST", "/api/v1/subscribers", { first_name: "Dee", last_name: `Lock${made}`, email, mobile, branch_id: null, subscription_status: "active", is_mandatory: false });
    expect(answer.status, answer.body).toBe(201);
    return parse(answer).id as number;
  };
  const version = async (id: number) => parse(await admin.request(`/api/v1/subscribers/${id}`)).updated_at as string;

  /** The console's statements waiting for a lock. */
  const waiting = async () =>
    Number(
      (
        await monitor.query(`SELECT count(*) AS n FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND wait_event_type = 'Lock' AND application_name LIKE 'console%'`)
      ).rows[0].n,
    );
  const until = async (check: () => Promise<boolean>, ms: number) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) return false;
      await new Promise((r) => setTimeout(r, 10));
    }
    return true;
  };

  /**
   * Holds `first` in the test's transaction, sends the request, and once the console waits for it
   * asks for `second`, which the console's transaction holds: a deadlock whose aborted side is the
   * console's. Returns the request's answer.
   */
  const deadlocked = async (first: string, second: string, request: () => Promise<RawResponse>): Promise<RawResponse> => {
    await locker.query("BEGIN");
    await locker.query("SET LOCAL deadlock_timeout = '30s'");
    await locker.query(first);
    const answer = request();
    expect(await until(async () => (await waiting()) > 0, 10_000), "the request never waited for the test's lock").toBe(true);
    const asked = performance.now();
    // Granted only once the console's transaction let go of it: the detector aborted it (it was waiting for `first`, it could not commit).
    await locker.query(second);
    expect(performance.now() - asked, "the test's second lock was not held by the request").toBeGreaterThan(300);
    await locker.query("ROLLBACK");
    return answer;
  };
  const rowLock = (id: number) => `SELECT id FROM subscribers WHERE id = ${id} FOR UPDATE`;
  const emailLock = (email: string) => `SELECT pg_advisory_xact_lock(${LOCK_EMAIL}, hashtext('${email.trim().toLowerCase()}'))`;
  const mobileLock = (mobile: string) => `SELECT pg_advisory_xact_lock(${LOCK_MOBILE}, hashtext('${mobile}'))`;
  const audited = async (action: string) => Number((await monitor.query(`SELECT count(*) AS n FROM audit_events WHERE action = $1`, [action])).rows[0].n);

  it("a merge deadlocked with a bulk change (rows in id order) is run again: 200, merged once", async () => {
    // survivor < other < merged: the merge locks survivor and merged, then flags `other` a duplicate
    // of the survivor (which takes the merged one's email); a bulk change of [other, merged] locks
    // `other`, then `merged`.
    const survivor = await create("keeps@deadlock.test", "+447911123401");
    const other = await create("taken@deadlock.test", "+447911123402");
    const merged = await create("TAKEN@deadlock.test", "+447911123403");
    const body = { survivor_id: survivor, merged_ids: [merged], values: { email: merged }, updated_at: { [survivor]: await version(survivor), [merged]: await version(merged) } };
    const answer = await deadlocked(rowLock(other), rowLock(merged), () => send("POST", "/api/v1/subscribers/merge", body));
    expect(answer.status, answer.body).toBe(200);
    expect(parse(answer).survivor).toMatchObject({ id: survivor, email: "TAKEN@deadlock.test" });
    expect((await admin.request(`/api/v1/subscribers/${merged}`)).status).toBe(404);
    expect(parse(await admin.request(`/api/v1/subscribers/${other}`))).toMatchObject({ is_duplicate: true });
    expect(Number((await monitor.query(`SELECT count(*) AS n FROM subscriber_merges WHERE survivor_id = $1`, [survivor])).rows[0].n)).toBe(1);
    expect(await audited("subscriber.merge")).toBe(1);
  });

  it("a \"not duplicates\" deadlocked with an edit (its row, its keys, then later rows' flags) is run again: 200, stored once", async () => {
    const edited = await create("edited@deadlock.test", "+447911123411");
    const first = await create("pair@deadlock.test", "+447911123412");
    const second = await create("Pair@deadlock.test", "+447911123413");
    // The edit of `edited` to the pair's email holds its row and the email's key, then redecides `second`.
    const answer = await deadlocked(`${rowLock(edited)}; ${emailLock("pair@deadlock.test")}`, rowLock(second), () =>
      send("POST", "/api/v1/subscribers/duplicates/dismiss", { ids: [first, second] }),
    );
    expect(answer.status, answer.body).toBe(200);
    expect(parse(answer)).toEqual({ ids: [first, second], pairs: [[first, second]], decided_again: [second] });
    expect(parse(await admin.request(`/api/v1/subscribers/${second}`))).toMatchObject({ is_duplicate: false });
    expect(await audited("subscriber.not_duplicates")).toBe(1);
  });

  it("a creation deadlocked with a writer holding its mobile's key, then asking for its email's, is run again: 201, created once", async () => {
    const before = await audited("subscriber.create");
    const answer = await deadlocked(mobileLock("+447911123421"), emailLock("fresh@deadlock.test"), () =>
      send("POST", "/api/v1/subscribers", { first_name: "Fresh", last_name: "Lock", email: "fresh@deadlock.test", mobile: "+447911123421", branch_id: null, subscription_status: "active", is_mandatory: false }),
    );
    expect(answer.status, answer.body).toBe(201);
    expect(parse(answer)).toMatchObject({ email: "fresh@deadlock.test", is_duplicate: false });
    expect(Number((await monitor.query(`SELECT count(*) AS n FROM subscribers WHERE email = 'fresh@deadlock.test'`)).rows[0].n)).toBe(1);
    expect(await audited("subscriber.create")).toBe(before + 1);
  });
});
