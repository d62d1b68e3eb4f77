import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, rawRequest, startConsole, type ConsoleServer, type RawResponse } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";

// Operating the production build (docs/API.md "Operating it"): every answer's X-Request-Id, the
// id in error bodies and in every line of its request; one JSON line per request with the route's
// pattern, never its path; job lines with their ids; /metrics behind METRICS_TOKEN with bounded
// labels. And what no line may hold: this run signs in with a password, makes an API token and a
// set-password link, sends filter values, and then greps every line the server wrote for them.

const PASSWORD = "logs-metrics-password-1";
const ADMIN = { email: "admin@logs.test", password: PASSWORD, role: "admin" as const };
const METRICS_TOKEN = "metrics-token-for-the-logs-test-0123456789";
/** Filter values: a search and an email, each unlike anything else the server would write. */
const FILTERS = { q: "Zebulonfilterword", email: "filtered.person@secret-filter.test" };

type Line = Record<string, unknown> & { level: string; msg: string };

const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const errorOf = (answer: RawResponse) => (JSON.parse(answer.body) as { error: { code: string; request_id?: string } }).error;

for (const kind of testDbKinds()) {
  describe(`request ids, logs and metrics on ${kind} (production build)`, () => {
    let server: ConsoleServer;
    let admin: Browser;
    let apiToken: string;
    let tokenId: number;
    let adminId: number;
    let setPasswordUrl: string;
    const bearer = () => ({ authorization: `Bearer ${apiToken}` });

    /** The server's JSON lines (its output also holds what Node or Next write themselves, on standard error). */
    const lines = (): Line[] =>
      server
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Line);
    const requestLine = (id: string) => lines().find((l) => l.msg === "request" && l.request_id === id);
    /** The request line of `id`, once the server has written it (after the answer ended). */
    const awaitRequestLine = async (id: string) => {
      for (let i = 0; i < 40 && !requestLine(id); i++) await new Promise((r) => setTimeout(r, 50));
      return requestLine(id);
    };

    beforeAll(async () => {
      server = await startConsole(kind, { users: [ADMIN], env: { METRICS_TOKEN, LOG_LEVEL: "info", JOB_POLL_SECONDS: "1" } });
      admin = new Browser(server.url, "127.0.0.61");
      expect((await admin.signIn(ADMIN.email, PASSWORD)).status).toBe(200);
      const made = await admin.request("/api/v1/tokens", json({ name: "logs script", scope: "export", expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10) }));
      expect(made.status, made.body).toBe(201);
      ({ token: apiToken, id: tokenId } = JSON.parse(made.body) as { token: string; id: number });
      const user = await admin.request("/api/v1/users", json({ name: "Link Holder", email: "link@logs.test", role: "staff" }));
      expect(user.status, user.body).toBe(201);
      setPasswordUrl = (JSON.parse(user.body) as { set_password_url: string }).set_password_url;
      expect(setPasswordUrl).toMatch(/\/set-password\/\S+$/);
      const me = await admin.request("/api/v1/subscribers?per_page=1", { headers: { "x-request-id": "whoami-1" } });
      expect(me.status).toBe(200);
      adminId = (await awaitRequestLine("whoami-1"))!.user_id as number;
      expect(adminId).toEqual(expect.any(Number));
    });
    afterAll(async () => server?.close());

    it("answers every request with an X-Request-Id: the client's own when it is a good one, else a new one", async () => {
      const own = await rawRequest(server.url, "/api/health", { headers: { "x-request-id": "Trace_1.2-3" } });
      expect(own.headers["x-request-id"]).toBe("Trace_1.2-3");
      expect((await rawRequest(server.url, "/api/health", { headers: { "x-request-id": "x".repeat(128) } })).headers["x-request-id"]).toBe("x".repeat(128));
      const seen = new Set<string>();
      for (const bad of ["x".repeat(129), "has space", "semi;colon", "ünï", ""]) {
        const answer = await rawRequest(server.url, "/api/health", { headers: { "x-request-id": bad } });
        const id = answer.headers["x-request-id"] as string;
        expect(id, bad).toMatch(/^[0-9a-f-]{36}$/);
        seen.add(id);
      }
      expect(seen.size).toBe(5);
      // Pages, Next's own files, a request refused before Next, and the 404 page have one too.
      for (const target of ["/login", "/favicon.ico", "/no/such/page"]) {
        expect((await rawRequest(server.url, target)).headers["x-request-id"], target).toMatch(/^[0-9a-f-]{36}$/);
      }
      const refused = await rawRequest(server.url, "/%E0%A4%A", { headers: { "x-request-id": "refused-1" } });
      expect(refused.status).toBe(400);
      expect(refused.headers["x-request-id"]).toBe("refused-1");
      expect(errorOf(refused).request_id).toBe("refused-1");
    });

    it("puts the request's id in error bodies, from the API and from the proxy", async () => {
      const missing = await admin.request("/api/v1/subscribers/999999", { headers: { "x-request-id": "missing-1" } });
      expect(missing.status).toBe(404);
      expect(errorOf(missing)).toMatchObject({ code: "not_found", request_id: "missing-1" });
      const anonymous = await rawRequest(server.url, "/api/v1/subscribers");
      expect(anonymous.status).toBe(401);
      expect(errorOf(anonymous).request_id).toBe(anonymous.headers["x-request-id"]);
      const badToken = await rawRequest(server.url, "/api/v1/subscribers", { headers: { authorization: "Bearer bsc_nope" } });
      expect(errorOf(badToken).request_id).toBe(badToken.headers["x-request-id"]);
      const crossSite = await admin.request("/subscribers", {
        method: "POST",
        headers: { origin: "https://evil.example", "content-type": "text/plain", "x-request-id": "cross-1" },
        body: "x",
      });
      expect(crossSite.status).toBe(403);
      expect(errorOf(crossSite).request_id).toBe("cross-1");
    });

    it("writes one JSON line per request: its route's pattern, status, duration, user and token", async () => {
      expect((await admin.request("/subscribers/424242", { headers: { "x-request-id": "page-1" } })).status).toBe(404);
      expect((await rawRequest(server.url, "/api/v1/subscribers/424242", { headers: { ...bearer(), "x-request-id": "token-1" } })).status).toBe(404);
      const page = await awaitRequestLine("page-1");
      expect(page).toMatchObject({ level: "info", method: "GET", route: "/subscribers/[id]", status: 404, user_id: adminId, token_id: null });
      expect(page!.duration_ms).toEqual(expect.any(Number));
      expect(Date.parse(page!.time as string)).not.toBeNaN();
      const api = await awaitRequestLine("token-1");
      expect(api).toMatchObject({ method: "GET", route: "/api/v1/subscribers/[id]", status: 404, user_id: adminId, token_id: tokenId });
      // The link's own page: its pattern, never its secret.
      const link = new URL(setPasswordUrl);
      await rawRequest(server.url, link.pathname, { headers: { "x-request-id": "link-1" } });
      expect(await awaitRequestLine("link-1")).toMatchObject({ route: "/set-password/[token]", user_id: null });
      const unknown = await rawRequest(server.url, "/no/such/page/123", { headers: { "x-request-id": "unknown-1" } });
      expect(unknown.status).toBe(404);
      expect(await awaitRequestLine("unknown-1")).toMatchObject({ route: "(unmatched)", status: 404 });
      // No route of any line holds an id.
      const routes = new Set(lines().filter((l) => l.msg === "request").map((l) => l.route as string));
      for (const route of routes) expect(route, route).not.toMatch(/\/\d+(\/|$)|424242/);
      expect(routes).toContain("/api/v1/tokens");
    });

    it("logs a job's start, progress and end with its id, and times it in the metrics", async () => {
      const requested = await rawRequest(server.url, `/api/v1/subscribers/export?${new URLSearchParams(FILTERS)}`, { method: "POST", headers: bearer() });
      expect(requested.status, requested.body).toBe(202);
      let ended: Line | undefined;
      for (let i = 0; i < 100 && !ended; i++) {
        await new Promise((r) => setTimeout(r, 200));
        ended = lines().find((l) => l.msg === "job ended" && l.job === "export");
      }
      expect(ended).toMatchObject({ job: "export", job_id: expect.stringMatching(/^[A-Za-z0-9_-]{16,}$/), attempt: 1 });
      const id = ended!.job_id;
      expect(ended!.duration_ms).toEqual(expect.any(Number));
      expect(lines().find((l) => l.msg === "job started" && l.job_id === id)).toBeDefined();
      const scrape = await rawRequest(server.url, "/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(scrape.body).toMatch(/^console_job_duration_seconds_count\{kind="export",outcome="done"\} [1-9]/m);
    });

    it("serves /metrics to METRICS_TOKEN alone: requests by route pattern, durations, pool, jobs, process", async () => {
      const none = await rawRequest(server.url, "/metrics");
      expect(none.status).toBe(401);
      expect(errorOf(none).request_id).toBe(none.headers["x-request-id"]);
      expect((await rawRequest(server.url, "/metrics", { headers: bearer() })).status).toBe(401);
      expect((await rawRequest(server.url, "/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } })).status).toBe(401);
      const scrape = await rawRequest(server.url, "/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(scrape.status).toBe(200);
      expect(scrape.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = scrape.body;
      expect(text).toMatch(/^console_http_requests_total\{route="\/api\/v1\/subscribers\/\[id\]",method="GET",status="404"\} [1-9]/m);
      expect(text).toMatch(/^console_http_request_duration_seconds_bucket\{le="0\.1",route="\/subscribers\/\[id\]",method="GET"\} /m);
      expect(text).toMatch(/^console_jobs\{queue="console-job",state="completed"\} [1-9]/m);
      expect(text).toMatch(/^process_cpu_user_seconds_total /m);
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
      if (kind === "postgres") expect(text).toMatch(/^console_db_pool_connections\{pool="console",state="in_use"\} \d+/m);
      // Labels are bounded: routes are patterns, never a path with an id or a secret.
      const routeLabels = [...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]!);
      expect(routeLabels.length).toBeGreaterThan(5);
      for (const route of routeLabels) expect(route, route).not.toMatch(/\/\d+(\/|$)|424242|set-password\/[^[]/);
    });

    it("never writes a password, a token, a cookie, a set-password link or a filter value", async () => {
      // Filters on the page, the API and the export, as a query string and as a body.
      await admin.request(`/subscribers?${new URLSearchParams(FILTERS)}`);
      await rawRequest(server.url, `/api/v1/subscribers?${new URLSearchParams(FILTERS)}`, { headers: bearer() });
      await admin.request(`/audit?${new URLSearchParams({ q: FILTERS.q })}`);
      // A failed sign-in with the password, and a bad token that looks like one.
      await new Browser(server.url, "127.0.0.62").signIn(ADMIN.email, `${PASSWORD}-wrong`);
      await rawRequest(server.url, "/api/v1/subscribers", { headers: { authorization: `Bearer ${apiToken}x` } });
      await new Promise((r) => setTimeout(r, 300));
      const output = server.output();
      expect(lines().filter((l) => l.msg === "request").length).toBeGreaterThan(20);
      const linkSecret = new URL(setPasswordUrl).pathname.split("/").pop()!;
      const secrets = {
        password: PASSWORD,
        "API token": apiToken,
        "API token's secret part": apiToken.slice(-24),
        "session cookie": admin.sessionToken()!,
        "set-password link": linkSecret,
        "METRICS_TOKEN": METRICS_TOKEN,
        "NEXTAUTH_SECRET": server.secret,
        "filter (search)": FILTERS.q,
        "filter (email)": FILTERS.email,
        "filter (email, encoded)": encodeURIComponent(FILTERS.email),
      };
      for (const [what, secret] of Object.entries(secrets)) {
        expect(secret.length, what).toBeGreaterThan(8);
        expect(output.includes(secret), `${what} in the logs`).toBe(false);
      }
      // No query string either: a request line has no path at all.
      expect(output).not.toMatch(/[?&](q|email)=/);
    });
  });
}
