import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { builtServerActions } from "../helpers/built-app";
import { Browser, startConsole, type ConsoleServer, type RawResponse } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";
import { describeAnswer } from "../helpers/security-headers";

// Issue 19's limits as the production build applies them, over HTTP. The in-process tests
// (tests/integration/starvation.test.ts) run every module once; the build compiles a module into
// each layer that imports it (pages, route handlers, instrumentation, the proxy), so one process
// holds several copies of a class or of an AsyncLocalStorage, and what one copy made another did
// not recognise:
// - a 429 of the per-user limit (kept on globalThis, made by whichever surface came first) was a
//   500 on the other surface (`instanceof AppError` against another copy of the class);
// - a request's abort signal, and PGlite's turns per user, were read from another copy of the
//   AsyncLocalStorage than the one the request filled: an aborted request's statements ran on;
// - the bulk confirmation page counted its subscribers on the export's pool, outside the per-user
//   limit and with no statement timeout: one user's burst kept another's imports waiting.

const PASSWORD = "limits-password-123";
const ADMIN = { email: "ada@limits.test", password: PASSWORD, role: "admin" as const };
const STAFF = { email: "sam@limits.test", password: PASSWORD, role: "staff" as const };
const SUBSCRIBERS = 3_000;

/** The audit's worst list: every word in a name, the email or the mobile, sorted by a joined name. */
const WORST = "q=a%20e%20i%20o%20u&sort=country_name";
const API_LIST = `/api/v1/subscribers?${WORST}`;
const PAGE_LIST = `/subscribers?${WORST}`;
const BULK_PAGE = `/subscribers/bulk?scope=all&change=mandatory:true&${WORST.replace(/&sort=.*/, "")}`;
const TOO_MANY_NOTICE = "Too many lists loading at once";
// A count of one reads in the singular (problems.load.tooManyLists).
const TOO_MANY_MESSAGE = /You already have (1 list or export|([2-9]|\d\d+) lists or exports) loading/;

/** `promise`, or a failure after `ms` (a request starved of connections would wait for as long as the lock is held). */
const within = <T,>(ms: number, promise: Promise<T>) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))]);
const burst = (n: number, send: (i: number) => Promise<RawResponse>) => Promise.all(Array.from({ length: n }, (_, i) => send(i)));
const describeAll = (answers: RawResponse[]) => answers.map((a) => describeAnswer(a)).join("\n");

/** Every answer of an API burst is its list or a 429 with Retry-After; at least one is a 429. */
function expectApiRefusals(answers: RawResponse[]) {
  const statuses = answers.map((a) => a.status);
  expect(statuses.every((s) => s === 200 || s === 429), describeAll(answers)).toBe(true);
  const refused = answers.filter((a) => a.status === 429);
  expect(refused.length, describeAll(answers)).toBeGreaterThan(0);
  for (const r of refused) {
    expect(r.headers["retry-after"]).toBe("2");
    expect(JSON.parse(r.body).error.code).toBe("too_many_requests");
  }
}

/**
 * A page answer of a burst: the page (200, streamed: its list, or the notice in place of it when
 * the limit refused it once it rendered), or the proxy's refusal before rendering anything (429,
 * Retry-After, its own short page saying the same).
 */
function expectPageOrRefusal(a: RawResponse) {
  expect([200, 429], describeAnswer(a)).toContain(a.status);
  // What the page shows, not the catalogue words its scripts carry for an error boundary.
  expect(a.body.replace(/<script[\s\S]*?<\/script>/g, ""), describeAnswer(a)).not.toContain("Something went wrong");
  if (a.status === 429) {
    expect(a.headers["retry-after"]).toBe("2");
    expect(a.body).toContain(TOO_MANY_NOTICE);
    expect(a.body).toMatch(TOO_MANY_MESSAGE);
    expect(a.body).not.toContain("/_next/static/");
  }
}

/** Every answer of a page burst is the page or the proxy's refusal; at least one says too many lists are loading. */
function expectPageNotices(answers: RawResponse[], notice: string | RegExp = TOO_MANY_NOTICE) {
  for (const a of answers) expectPageOrRefusal(a);
  expect(answers.filter((a) => (typeof notice === "string" ? a.body.includes(notice) : notice.test(a.body))).length).toBeGreaterThan(0);
}

const seed = (run: (text: string) => Promise<unknown>) => seedSubscribers(run, SUBSCRIBERS);

for (const kind of testDbKinds()) {
  describe(`a 429 is a 429 on every surface, whichever made the limit (${kind})`, () => {
    let server: ConsoleServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    // One running and none waiting: any two lists of the user at once make a refusal.
    const start = async () => {
      server = await startConsole(kind, { users: [STAFF], seed, env: { HEAVY_REQUESTS_PER_USER: "1", HEAVY_REQUESTS_QUEUE: "0" } });
      const staff = new Browser(server.url);
      expect((await staff.signIn(STAFF.email, PASSWORD)).status).toBe(200);
      return staff;
    };

    it("answers the API's burst with 429s, then the page's with its notice", async () => {
      const staff = await start();
      expectApiRefusals(await burst(16, () => staff.request(API_LIST)));
      expectPageNotices(await burst(12, () => staff.request(PAGE_LIST)));
      expectApiRefusals(await burst(16, () => staff.request(API_LIST)));
    });

    it("answers the page's burst with its notice, then the API's with 429s", async () => {
      const staff = await start();
      expectPageNotices(await burst(12, () => staff.request(PAGE_LIST)));
      expectApiRefusals(await burst(16, () => staff.request(API_LIST)));
      expectPageNotices(await burst(12, () => staff.request(PAGE_LIST)));
    });

    it("counts the bulk confirmation page and the bulk action within the same limit", async () => {
      const staff = await start();
      // Made by the API first, as above: the page and the action recognise its refusals. Each
      // burst goes beside list pages, whose several statements hold the user's one slot across
      // turns of the event loop (on PGlite a lone count runs start to end in one turn).
      expectApiRefusals(await burst(16, () => staff.request(API_LIST)));
      // Which of two bursts sent at once takes the slot first is the machine's timing (on PGlite
      // every statement waits in one queue): they go side by side until a list page and a bulk
      // page have each been refused (at most ROUNDS of them), and every answer of every round is
      // checked: the list page or its notice, the confirmation or the refusal, never an error.
      const ROUNDS = 8;
      let listNotices = 0;
      let bulkRefusals = 0;
      for (let round = 0; round < ROUNDS && (listNotices === 0 || bulkRefusals === 0); round++) {
        const [lists, bulkPages] = await Promise.all([burst(8, () => staff.request(PAGE_LIST)), burst(12, () => staff.request(BULK_PAGE))]);
        for (const a of [...lists, ...bulkPages]) expectPageOrRefusal(a);
        for (const a of bulkPages) expect(a.body, describeAnswer(a)).toMatch(/will change|You already have 1 list or export loading/);
        listNotices += lists.filter((a) => a.body.includes(TOO_MANY_NOTICE)).length;
        bulkRefusals += bulkPages.filter((a) => TOO_MANY_MESSAGE.test(a.body)).length;
      }
      expect(listNotices, "no list page was refused beside the bulk pages").toBeGreaterThan(0);
      expect(bulkRefusals, "no bulk page was refused beside the list pages").toBeGreaterThan(0);
      const action = builtServerActions().find((a) => a.name === "bulkChangeAction")!;
      const postAction = () =>
        staff.request(action.page, {
          method: "POST",
          headers: { "next-action": action.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" },
          body: JSON.stringify([{ target: { filters: { q: "zzz-matches-nobody a e" } }, change: { is_mandatory: true } }]),
        });
      // An action reaches the limit later than a page (its body is read and decoded first), so on
      // a fast machine a whole burst of lists can be over before the actions arrive. Bursts go
      // side by side until one action meets a list in the user's slot (at most ROUNDS of them);
      // every answer of every round is checked.
      let refused = 0;
      const answers: RawResponse[] = [];
      for (let round = 0; round < ROUNDS && refused === 0; round++) {
        const [moreLists, these] = await Promise.all([burst(8, () => staff.request(PAGE_LIST)), burst(12, postAction)]);
        for (const a of moreLists) expectPageOrRefusal(a);
        answers.push(...these);
        refused += these.filter((a) => TOO_MANY_MESSAGE.test(a.body)).length;
      }
      expect(answers.map((a) => a.status), describeAll(answers)).toEqual(answers.map(() => 200));
      for (const a of answers) expect(a.body, describeAnswer(a)).toMatch(/No subscriber matches|You already have 1 list or export loading/);
      expect(refused, describeAll(answers)).toBeGreaterThan(0);
    });
  });
}

describe.runIf(testDbKinds().includes("postgres"))("PostgreSQL: statements of requests that wait (production build)", () => {
  let server: ConsoleServer;
  let admin: Browser;
  let staff: Browser;
  let locker: pg.Client;
  let monitor: pg.Client;

  beforeAll(async () => {
    server = await startConsole("postgres", { users: [ADMIN, STAFF], seed, env: { DATABASE_STATEMENT_TIMEOUT_MS: "2000", HEAVY_REQUESTS_QUEUE: "0" } });
    admin = new Browser(server.url);
    staff = new Browser(server.url);
    expect((await admin.signIn(ADMIN.email, PASSWORD)).status).toBe(200);
    expect((await staff.signIn(STAFF.email, PASSWORD)).status).toBe(200);
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

  const lockSubscribers = async () => {
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE subscribers IN ACCESS EXCLUSIVE MODE");
  };
  const unlock = () => locker.query("ROLLBACK");
  /** The console's statements waiting for the lock. */
  const waiting = async () =>
    Number(
      (
        await monitor.query(
          `SELECT count(*) AS n FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND wait_event_type = 'Lock'
             AND application_name LIKE 'console%'`,
        )
      ).rows[0].n,
    );
  const until = async (check: () => Promise<boolean>, ms: number) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) return false;
      await new Promise((r) => setTimeout(r, 25));
    }
    return true;
  };

  /** Sends `path` as staff and goes away after `ms`; resolves once the client has given up. */
  const abandon = async (path: string, ms = 500) => {
    const controller = new AbortController();
    const sent = fetch(`${server.url}${path}`, { headers: { cookie: staff.cookie }, signal: controller.signal })
      .then(async (r) => (await r.text(), r.status))
      .catch(() => "aborted");
    expect(await until(async () => (await waiting()) > 0, 5_000), `${path}: no statement waited`).toBe(true);
    await new Promise((r) => setTimeout(r, ms));
    controller.abort();
    return sent;
  };

  for (const path of ["/api/v1/subscribers?last_name=mill", "/subscribers?last_name=mill", "/subscribers/bulk?scope=all&change=mandatory:true&last_name=mill"]) {
    it(`cancels the statements of ${path.split("?")[0]} once its client goes away (the in-process worker running)`, async () => {
      await lockSubscribers();
      expect(await abandon(path)).toBe("aborted");
      expect(await until(async () => (await waiting()) === 0, 1_000), "statements still waiting 1 s after the abort").toBe(true);
      await unlock();
      expect((await staff.request(path)).status).toBe(200);
    });
  }

  it("keeps the bulk confirmation page's counts off the export's connections, bounded by the statement timeout and the user's limit", async () => {
    const others = ["/api/v1/subscribers/imports", "/api/v1/subscribers/export", "/api/v1/branches"];
    for (const path of others) expect((await admin.request(path)).status, path).toBe(200); // loaded once: what is timed below is the wait
    expect((await staff.request(BULK_PAGE)).status).toBe(200);
    await lockSubscribers();
    const started = Date.now();
    const pages = burst(24, () => staff.request(BULK_PAGE));
    pages.catch(() => {}); // awaited below; not left unhandled when an expectation fails first
    expect(await until(async () => (await waiting()) > 0, 5_000)).toBe(true);
    // An admin's imports and export status meanwhile: answered at once.
    for (const path of others) {
      const before = Date.now();
      const answer = await within(3_000, admin.request(path));
      expect(answer.status, `${path}: ${describeAnswer(answer)}`).toBe(200);
      expect(Date.now() - before, path).toBeLessThan(1_500);
    }
    expect(await waiting()).toBeLessThanOrEqual(2); // the user's limit: two counts at a time
    // Every page is answered while the lock is still held: the counts stopped at the statement timeout.
    const answers = await pages;
    expect(Date.now() - started).toBeLessThan(8_000);
    for (const a of answers) expectPageOrRefusal(a);
    expect(answers.filter((a) => TOO_MANY_MESSAGE.test(a.body)).length).toBe(22);
    expect(answers.filter((a) => a.body.includes("This took too long and was stopped")).length).toBe(2);
    await unlock();
    // Unlocked, the count is shown (React separates the text's parts with comments).
    expect((await staff.request(BULK_PAGE)).body.replaceAll("<!-- -->", "")).toMatch(/[\d,]+ subscribers will change/);
  });
});
