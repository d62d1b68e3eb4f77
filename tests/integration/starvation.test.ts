import pg from "pg";
import type { ReactElement } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSubscriberAction } from "@/app/(console)/subscribers/actions";
import SubscribersPage from "@/app/(console)/subscribers/page";
import { GET as branchesGET } from "@/app/api/v1/branches/route";
import { GET as subscribersGET } from "@/app/api/v1/subscribers/route";
import { ListProblemNotice } from "@/components/list/list-states";
import type { SessionUser } from "@/lib/auth/permissions";
import { openDatabase, setDatabaseForTests, type Database } from "@/lib/db/client";
import { problem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { setUserLimitForTests, UserLimit } from "@/lib/load/user-limit";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";
import { apiRequest } from "../helpers/http";

// Issue 19, "no user can starve the others": 24 simultaneous list requests of one staff user made
// an admin's one-row GET /api/v1/branches answer 503 "database unavailable" after 5 s, and aborted
// requests kept running in PostgreSQL. A list statement is made to wait here by a lock that
// another connection holds on `subscribers` (as a slow query would, but for as long as the test
// wants): what it shows is about connections, not speed. The lists filter by last name, so that
// both their statements (rows and total) read `subscribers` and wait.

type Body = { error?: { code: string; message: string }; data?: unknown[] };
const read = async (response: Response) => ({ status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Body });

/** Starts a route call as `user` (the guard reads who is signed in before the call's first await). */
function as<T>(user: SessionUser, call: () => Promise<T>): Promise<T> {
  actAs(user);
  return call();
}

/** The element of type `name` in a server component's tree (the first, depth first). */
function find(node: unknown, name: string): ReactElement<Record<string, unknown>> | null {
  if (!node || typeof node !== "object") return null;
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = find(child, name);
      if (found) return found;
    }
    return null;
  }
  const element = node as ReactElement<Record<string, unknown>>;
  if (typeof element.type === "function" && element.type.name === name) return element;
  return find(element.props?.children, name);
}

type Component = (props: unknown) => ReactElement<Record<string, unknown>> | Promise<ReactElement<Record<string, unknown>>>;
const render = (element: ReactElement<Record<string, unknown>>) => (element.type as Component)(element.props);

/** Renders /subscribers' list part (ListBody, then the async ListResults in it) for the current user. */
async function renderList(query: Record<string, string> = {}) {
  const page = await SubscribersPage({ searchParams: Promise.resolve(query) });
  const body = await render(find(page, "ListBody")!);
  return render(find(body, "ListResults")!);
}

for (const kind of testDbKinds()) {
  describe(`one user's burst (${kind})`, () => {
    let database: Database;
    let users: Awaited<ReturnType<typeof createUsers>>;

    beforeAll(async () => {
      database = await testDatabase(kind);
      await seedSubscribers((text) => database.prisma.$executeRawUnsafe(text), 2000);
      users = await createUsers(database);
    });
    afterEach(() => setUserLimitForTests(undefined));
    afterAll(async () => {
      actAs(null);
      await database?.close();
    });

    it("runs two of a user's 24 simultaneous lists, queues 8, refuses the others with 429 and Retry-After; another user is served", async () => {
      setUserLimitForTests(new UserLimit({ running: 2, waiting: 8, waitMs: 30_000 }));
      const burst = Array.from({ length: 24 }, (_, i) =>
        as(users.staff, () => subscribersGET(apiRequest(`/api/v1/subscribers?first_name=a&page=${i + 1}`), {})),
      );
      const other = as(users.admin, () => subscribersGET(apiRequest("/api/v1/subscribers?last_name=a"), {}));
      // A list whose cost is bounded by design (first page, no text filter) is not counted.
      const light = as(users.staff, () => subscribersGET(apiRequest("/api/v1/subscribers?subscription_status=active"), {}));
      const answers = await Promise.all(burst.map(async (r) => read(await r)));
      expect((await read(await other)).status).toBe(200);
      expect((await read(await light)).status).toBe(200);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(14);
      for (const r of refused) {
        expect(r.retryAfter).toBe("2");
        expect(r.body.error).toEqual({ code: "too_many_requests", message: "You already have 2 lists or exports loading. Wait for them to finish, then try again." });
      }
    });

    it("shows the page's list a clear message instead of the table when the user has too many loading", async () => {
      setUserLimitForTests(new UserLimit({ running: 1, waiting: 0, waitMs: 1_000 }));
      actAs(users.staff);
      const [first, second] = await Promise.all([renderList({ last_name: "x" }), renderList({ first_name: "b" })]);
      const notices = [first, second].filter((r) => r.type === ListProblemNotice);
      expect(notices).toHaveLength(1);
      expect(notices[0]!.props.problem).toMatchObject({ kind: "too_many", title: "Too many lists loading at once", message: problem("load.tooManyLists", { running: 1 }) });
      // A problem key, so the notice says it in the reader's language (one list: the singular).
      const { message } = notices[0]!.props.problem as { message: string };
      expect(problemsIn("en")(message)).toBe("You already have 1 list or export loading. Wait for them to finish, then try again.");
      expect(problemsIn("fr")(message)).toBe("Vous avez déjà 1 liste ou export en cours de chargement. Attendez qu’ils se terminent, puis réessayez.");
    });
  });
}

describe.runIf(testDbKinds().includes("postgres"))("PostgreSQL: statements that wait", () => {
  let database: Database;
  let users: Awaited<ReturnType<typeof createUsers>>;
  let locker: pg.Client;
  let monitor: pg.Client; // outside any transaction: pg_stat_activity is read once per transaction
  const extra: Database[] = [];

  beforeAll(async () => {
    database = await testDatabase("postgres");
    await seedSubscribers((text) => database.prisma.$executeRawUnsafe(text), 2000);
    users = await createUsers(database);
    locker = new pg.Client({ connectionString: url() });
    await locker.connect();
    monitor = new pg.Client({ connectionString: url() });
    await monitor.connect();
  });
  afterEach(async () => {
    await locker.query("ROLLBACK").catch(() => {});
    setDatabaseForTests(database);
    setUserLimitForTests(undefined);
    delete process.env.DATABASE_POOL_SIZE;
    while (extra.length) await extra.pop()!.close();
  });
  afterAll(async () => {
    actAs(null);
    await locker?.end();
    await monitor?.end();
    await database?.close();
  });

  const url = () => (database.target.kind === "postgres" ? database.target.url : "");
  const lockSubscribers = async () => {
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE subscribers IN ACCESS EXCLUSIVE MODE");
  };
  const unlock = () => locker.query("ROLLBACK");
  /** Statements of this test's database waiting for the lock (pg_stat_activity). */
  const waiting = async () =>
    Number(
      (
        await monitor.query(
          `SELECT count(*) AS n FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND wait_event_type = 'Lock'`,
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
  async function useDatabase(options: { statementTimeoutMs?: number; poolSize?: number; parallelWorkers?: number }) {
    if (options.poolSize) process.env.DATABASE_POOL_SIZE = String(options.poolSize);
    const db = await openDatabase({ kind: "postgres", url: url() }, { statementTimeoutMs: options.statementTimeoutMs, parallelWorkers: options.parallelWorkers });
    extra.push(db);
    setDatabaseForTests(db);
    return db;
  }

  it("keeps an admin's one-row answer at 200 while a staff user's 24 lists hold their statements", async () => {
    await lockSubscribers();
    const burst = Array.from({ length: 24 }, (_, i) =>
      as(users.staff, () => subscribersGET(apiRequest(`/api/v1/subscribers?last_name=ast&sort=branch_name&page=${i + 1}`), {})),
    );
    expect(await until(async () => (await waiting()) >= 4, 5_000)).toBe(true);
    const started = Date.now();
    const admin = await read(await as(users.admin, () => branchesGET(apiRequest("/api/v1/branches?page=1"), {})));
    expect(admin.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await waiting()).toBeLessThanOrEqual(4); // two lists of the staff user, two statements each
    await unlock();
    const statuses = (await Promise.all(burst.map(async (r) => (await r).status))).sort();
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(14).fill(429)]);
  });

  it("opens the app's connections with its statement timeout, and one core per statement", async () => {
    const db = await useDatabase({ statementTimeoutMs: 1234, parallelWorkers: 0 });
    const [settings] = await db.prisma.$queryRaw<{ timeout: string; workers: string }[]>`SELECT current_setting('statement_timeout') AS timeout, current_setting('max_parallel_workers_per_gather') AS workers`;
    expect(settings).toEqual({ timeout: "1234ms", workers: "0" });
  });

  it("answers a statement that reaches statement_timeout with a clear 503 on the API, the page and actions, and recovers", async () => {
    await useDatabase({ statementTimeoutMs: 300 });
    await lockSubscribers();
    actAs(users.staff);
    // More timeouts than the pool has connections: none is left hanging.
    for (let i = 0; i < 12; i++) {
      const answer = await read(await subscribersGET(apiRequest(`/api/v1/subscribers?last_name=ast&page=${i + 1}`), {}));
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toBe("2");
      expect(answer.body.error).toEqual({
        code: "query_timeout",
        message: "This took too long and was stopped. Narrow the filters, or try again in a moment.",
      });
    }
    const list = await renderList({ last_name: "smith" });
    expect(list.type).toBe(ListProblemNotice);
    expect(list.props.problem).toMatchObject({ kind: "timeout", title: "This list took too long" });
    const created = await createSubscriberAction({
      first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", mobile: "+447400123456", subscription_status: "active", is_mandatory: false,
    } as never);
    expect(created).toMatchObject({ ok: false, formError: expect.stringMatching(/took too long and was stopped/) });
    await unlock();
    expect((await subscribersGET(apiRequest("/api/v1/subscribers"), {})).status).toBe(200);
  });

  it("calls a wait for a pooled connection busy, not a database outage", async () => {
    await useDatabase({ poolSize: 2 });
    await lockSubscribers();
    const held = as(users.staff, () => subscribersGET(apiRequest("/api/v1/subscribers?last_name=ast&sort=last_name"), {}));
    expect(await until(async () => (await waiting()) >= 2, 5_000)).toBe(true);
    const answer = await read(await as(users.admin, () => branchesGET(apiRequest("/api/v1/branches"), {})));
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).toBe("2");
    expect(answer.body.error).toEqual({ code: "busy", message: "The console is busy with other requests right now. Try again in a few seconds." });
    await unlock();
    expect((await held).status).toBe(200);
  });

  it("cancels the statements of a request whose client went away", async () => {
    await lockSubscribers();
    const controller = new AbortController();
    const request = new Request("http://localhost/api/v1/subscribers?last_name=ast&sort=country_name", { signal: controller.signal });
    const answer = as(users.staff, () => subscribersGET(request, {}));
    expect(await until(async () => (await waiting()) === 2, 5_000)).toBe(true);
    controller.abort();
    expect(await until(async () => (await waiting()) === 0, 1_000)).toBe(true);
    expect((await answer).status).toBe(499);
    // The lock is still held: the statements stopped because they were cancelled, and the pool serves on.
    await unlock();
    expect((await as(users.staff, () => subscribersGET(apiRequest("/api/v1/subscribers"), {}))).status).toBe(200);
  });
});
