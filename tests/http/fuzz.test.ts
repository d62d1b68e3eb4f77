import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUBSCRIBER_FILTER_KEYS } from "@/lib/subscribers/filters";
import { appEntries, builtServerActions, type AppEntry } from "../helpers/built-app";
import { Browser, startConsole, type ConsoleServer, type RawResponse } from "../helpers/console-server";
import { describeAnswer, securityHeaderProblems } from "../helpers/security-headers";

// Every page and route of app/ (read from the folder, so a new one is fuzzed the day it is
// added), every server action of the build, and the paths around them, with hostile path
// segments, query strings, headers (RSC, Next-Router-State-Tree, Next-Action, Content-Type,
// Content-Length, Origin…), methods and bodies, as an anonymous caller, a staff user and an
// admin with real session cookies, against the production build (`npm run serve`). Whatever is
// sent: never a 5xx, never a stack trace, and the security headers on every answer. (Issue 19:
// "How it is kept out".) Seeds are fixed: a failure reproduces, and fast-check prints the
// smallest request that fails.

const PASSWORD = "fuzz-password-123456";
const ADMIN = { email: "admin@fuzz.test", password: PASSWORD, role: "admin" as const };
const STAFF = { email: "staff@fuzz.test", password: PASSWORD, role: "staff" as const };
const SEED = 19;

type Who = "anonymous" | "staff" | "admin";
type Sent = { who: Who; method: string; target: string; headers: Record<string, string>; body?: string | Buffer };

const ENTRIES = appEntries();
/** The build's actions but sign-out: ending the fuzz's own sessions would only lose coverage. */
const ACTIONS = builtServerActions().filter((a) => a.name !== "signOutAction");

// ---------------------------------------------------------------------------------------------
// Values

/** encodeURIComponent, except that a lone surrogate becomes the bytes UTF-8 cannot hold. */
const escape = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return "%ED%A0%80";
  }
};
/** What Node's client puts on a request line as it is: 0x21–0xFF. */
const onTheLine = (s: string) => s.replace(/[^\u0021-\u00ff]|[#&=?]/g, "");

/** Bytes as %XX escapes, well-formed UTF-8 or not. */
const escapedBytes = fc.uint8Array({ minLength: 1, maxLength: 6 }).map((bytes) => [...bytes].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(""));
/** A string as it may appear in a request line or a header: no controls or DEL, Latin-1 at most (what Node's client sends). */
const latin1 = fc.string({ unit: fc.oneof(fc.integer({ min: 0x21, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })).map((c) => String.fromCharCode(c)), maxLength: 24 });

const HOSTILE_TEXT = [
  "", " ", "0", "-1", "1.5", "1e999", "0x36", "0b110110", "54e0", "54.0", " 54", "054", "2147483648", "99999999999999999999",
  "0000-01-01", "0001-01-01", "9999-12-31", "2026-02-30", "2026-13-01", "1900-01-01", "true", "false", "null", "undefined",
  "'; DROP TABLE subscribers; --", "%", "_", "\\", "<script>alert(1)</script>", "{{7*7}}", "${7*7}", "../../etc/passwd",
  "😀".repeat(30), "a".repeat(300), "\u202eevil", "\u0000", "\u2028", "نیک\u200cنام", "-created_at", "name", "-name",
  "//evil.example", "https://evil.example", "javascript:alert(1)", "/subscribers", "active", "[]", "{}", "$1", "$$x",
];
const text = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...HOSTILE_TEXT) }, fc.string({ maxLength: 40 }), fc.integer().map(String), fc.string({ unit: "binary", maxLength: 12 }));

/** One path segment as it goes on the wire. */
const segment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("1", "2", "54", "x", "new", "edit", "download", "AAAAAAAAAAAAAAAAAAAAAA", "%FF", "%", "%2", "%00", "%2F", "%2e%2e", "..", ".", "%C0%AF", "%E0%A4%A", "0x36", "54e0", "54.0", "%2054", "054", "-1", "2147483648", "%EF%BB%BF1", "csrf", "session", "callback", "credentials", "signout", "providers", "signin", "_log", "error") },
  { weight: 3, arbitrary: text.map(escape) },
  { weight: 2, arbitrary: escapedBytes },
  // Raw Latin-1 bytes on the request line: Node's parser refuses most (400, server.ts's answer).
  latin1.filter((s) => !/[/?#]/.test(s)),
);

/** A concrete URL path for an entry of app/: its dynamic segments filled with hostile values. */
function pathFor(entry: AppEntry): fc.Arbitrary<string> {
  const parts = entry.pattern.split("/").filter(Boolean);
  const filled = parts.map((part) => {
    if (/^\[\.\.\..+\]$/.test(part)) return fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));
    if (/^\[.+\]$/.test(part)) return segment;
    return fc.oneof({ weight: 20, arbitrary: fc.constant(part) }, fc.constant(part.toUpperCase()), fc.constant(`${part}/`));
  });
  return filled.length === 0 ? fc.constantFrom("/", "//", "/?") : fc.tuple(...filled).map((s) => `/${s.join("/")}`);
}

const OTHER_PATHS = fc.oneof(
  fc.constantFrom("/favicon.ico", "/_next/image?url=/subscribers&w=64&q=75", "/_next/image?url=/favicon.ico&w=16&q=1", "/_next/static/x.js", "/_next/data/x.json", "/_next/", "/robots.txt", "/api", "/api/", "/api/v2/x", "//evil.example/", "/%2e%2e/%2e%2e/etc/passwd", "/login/", "/LOGIN", "/subscribers/new/x", "/branches/1", "/branches/1/edit/x"),
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join("/")}`),
);
const path = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ENTRIES).chain(pathFor) }, OTHER_PATHS);

const QUERY_KEYS = [...SUBSCRIBER_FILTER_KEYS, "page", "sort", "name", "updated_from", "updated_to", "action", "actor", "entity_id", "ip", "at_from", "at_to", "callbackUrl", "error", "_rsc", "url", "w", "q", "json", "csrf"];
const queryString = fc
  .array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) }, text), fc.oneof({ weight: 6, arbitrary: text.map(escape) }, { weight: 2, arbitrary: escapedBytes }, latin1.map(onTheLine)), fc.constantFrom(false, false, false, true)), { maxLength: 6 })
  .map((pairs) => pairs.map(([k, v, raw]) => `${raw ? onTheLine(k) : escape(k)}=${v}`).join("&"));

const target = fc.tuple(path, fc.option(queryString, { nil: undefined })).map(([p, q]) => (q === undefined ? p : `${p}${p.includes("?") ? "&" : "?"}${q}`));

// ---------------------------------------------------------------------------------------------
// Headers and bodies

const tree = (page: string[]) => JSON.stringify(["", { children: page.reduceRight<unknown>((inner, s) => [s, { children: inner }], ["__PAGE__", {}]) }, null, null]);
const routerState = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(tree(["(console)", "subscribers"]), tree(["(console)", "branches"]), tree(["login"])).map(encodeURIComponent) },
  fc.constantFrom("garbage", "%7B", "%FF", "null", "{}", "[1]", "[]", '["",{"children":5}]', '["",[]]', `${'["",{"a":'.repeat(200)}["",{}]${"}]".repeat(200)}`),
  fc.jsonValue({ maxDepth: 3 }).map((v) => encodeURIComponent(JSON.stringify(v))),
  latin1,
);
const actionId = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ACTIONS.map((a) => a.id)) }, fc.constantFrom("x", "", "0".repeat(42), "7f".padEnd(42, "0"), `${ACTIONS[0]!.id}, ${ACTIONS[1]!.id}`), latin1);
const BOUNDARY = "----formdata-fuzz-5b8c";
const CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "text/plain;charset=UTF-8", `multipart/form-data; boundary=${BOUNDARY}`, "multipart/form-data", "multipart/form-data; boundary=", "application/x-www-form-urlencoded", "text/x-component", "application/xml", "application/json; charset=latin1", ""];

const HEADER_VALUES: Record<string, fc.Arbitrary<string>> = {
  rsc: fc.constantFrom("1", "1", "1", "0", "2", "", "x"),
  "next-router-state-tree": routerState,
  "next-router-prefetch": fc.constantFrom("1", "2", "3", "x"),
  "next-router-segment-prefetch": fc.constantFrom("/_tree", "/_full", "/children/__PAGE__", "garbage", "%FF"),
  "next-url": fc.constantFrom("/subscribers", "/%FF", "//evil.example", "x"),
  "next-action": actionId,
  "content-type": fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, latin1),
  origin: fc.constantFrom("SAME", "SAME", "http://evil.example", "null", "garbage", "http://127.0.0.1", "file://"),
  accept: fc.constantFrom("text/html", "application/json", "text/x-component", "*/*", "image/webp"),
  "accept-language": fc.constantFrom("fa-IR", "he", "x-invalid-;q=abc"),
  "x-forwarded-host": fc.constantFrom("evil.example", "", "127.0.0.1"),
  "x-forwarded-for": fc.constantFrom("203.0.113.1", "garbage", "::1, 10.0.0.1"),
  "content-length-bogus": fc.constantFrom("abc", "-1", "0"),
  "if-none-match": fc.constantFrom('"x"', "*"),
  range: fc.constantFrom("bytes=0-1", "bytes=x"),
  cookie: fc.constantFrom("next-auth.session-token=garbage", "next-auth.callback-url=%FF", "a=%FF"),
  authorization: fc.oneof(
    fc.constantFrom("Bearer", "Bearer ", "Bearer bsc_", `Bearer bsc_${"A".repeat(43)}`, "Basic YTpi", "bearer  x y", "Bearer %FF", "Bearer \u00ff"),
    latin1.map((s) => `Bearer ${s}`),
  ),
  "x-anything": latin1,
};
/** A few headers per request (most carry none or one), so that each reaches the code behind the others. */
const headers = fc
  .array(fc.constantFrom(...Object.keys(HEADER_VALUES)).chain((name) => HEADER_VALUES[name]!.map((value) => [name, value] as const)), { maxLength: 3 })
  .map((pairs) => Object.fromEntries(pairs) as Record<string, string>);

const multipart = (fields: [string, string][], broken: boolean) => {
  const text = fields.map(([n, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`).join("") + `--${BOUNDARY}--\r\n`;
  return broken ? text.slice(0, Math.max(0, text.length - 9)) : text;
};
const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.constantFrom(...QUERY_KEYS, "name", "first_name", "last_name", "email", "mobile", "branch_id", "country_id", "travel_date", "sheet_name", "subscription_status", "is_mandatory", "is_duplicate", "__proto__", "emial"), fc.oneof(text, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 5 }),
);
const body = fc.oneof(
  { weight: 3, arbitrary: jsonBody.map((v) => JSON.stringify(v)) },
  { weight: 2, arbitrary: fc.oneof(fc.constantFrom('["$1"]', '["$Q1"]', '["$F1"]', '["$B1"]', '["$h1"]', '["$@1"]', '["$K1"]', '["$T"]', '["$n1"]', '["$D2020"]', '["$Z"]', '["$"]', "[{}]", "[]", "[null]", '[{"id":"0x36","name":"x"}]', '[{"email":{"$ne":""}}]'), fc.array(jsonBody, { maxLength: 2 }).map((args) => JSON.stringify(args))) },
  fc.tuple(fc.array(fc.tuple(fc.oneof(fc.constantFrom("0", "1", "1_a", ...ACTIONS.map((a) => `$ACTION_ID_${a.id}`), "$ACTION_REF_1", "$ACTION_1:0", "$ACTION_KEY", "file"), text), fc.oneof(text, jsonBody.map((v) => JSON.stringify(v)))), { maxLength: 3 }), fc.boolean()).map(([f, broken]) => multipart(f, broken)),
  fc.array(fc.tuple(text, text), { maxLength: 4 }).map((pairs) => new URLSearchParams(pairs).toString()),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc.constant(""),
);

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "TRACK", "PROPFIND", "FOO", "get"];
const who = fc.constantFrom<Who>("anonymous", "staff", "admin");

const request: fc.Arbitrary<Sent> = fc
  .record({
    who,
    method: fc.oneof({ weight: 6, arbitrary: fc.constantFrom("GET", "POST", "PATCH", "DELETE") }, fc.constantFrom(...METHODS)),
    target,
    headers,
    body: fc.option(body, { nil: undefined, freq: 3 }),
  })
  .map((r) => {
    const sent: Sent = { who: r.who, method: r.method, target: r.target, headers: {} };
    for (const [name, value] of Object.entries(r.headers)) {
      if (name === "content-length-bogus") continue;
      sent.headers[name] = value;
    }
    // A declared length that is no number, only on requests without a body (a wrong length on
    // one with a body would leave the connection waiting, which tests the client, not the server).
    if (r.body === undefined && r.headers["content-length-bogus"] !== undefined) sent.headers["content-length"] = r.headers["content-length-bogus"];
    if (r.body !== undefined && r.method !== "GET" && r.method !== "HEAD" && r.method !== "get") sent.body = r.body;
    return sent;
  });

// ---------------------------------------------------------------------------------------------

describe("fuzzing every page and route over HTTP", () => {
  let server: ConsoleServer;
  const browsers = {} as Record<Who, Browser>;
  let sent = 0;
  /** Answers by status, to see what the fuzz reached (printed at the end). */
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    server = await startConsole("pglite", {
      users: [ADMIN, STAFF],
      // The fuzz signs in again whenever an answer ended its session: no pause may stop it.
      env: { LOGIN_MAX_FAILURES: "1000000", LOGIN_MAX_FAILURES_PER_IP: "1000000" },
    });
    browsers.anonymous = new Browser(server.url);
    browsers.staff = new Browser(server.url);
    browsers.admin = new Browser(server.url);
    await signedIn("staff");
    await signedIn("admin");
    // Records for the ids the fuzz names (1, 2, 54…).
    for (let i = 0; i < 3; i++) expect((await browsers.admin.request("/api/v1/branches", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: `Fuzz branch ${i}` }) })).status).toBe(201);
  });
  afterAll(async () => {
    console.info(`fuzz: ${sent} requests; answers by status: ${[...statuses].sort(([a], [b]) => a - b).map(([k, v]) => `${k}×${v}`).join(" ")}`);
    await server?.close();
  });

  async function signedIn(w: Who) {
    const browser = browsers[w];
    if (w === "anonymous" || browser.sessionToken()) return browser;
    browser.jar.clear();
    const user = w === "admin" ? ADMIN : STAFF;
    const response = await browser.signIn(user.email, user.password);
    expect(response.status, `signing ${w} in again: ${describeAnswer(response)}`).toBe(200);
    return browser;
  }

  /** Sends one request and returns what is wrong with its answer (nothing: []). */
  async function problems(r: Sent): Promise<string[]> {
    const browser = await signedIn(r.who);
    const headers = { ...r.headers };
    if (headers.origin === "SAME") headers.origin = server.url;
    if (headers.cookie !== undefined && browser.jar.size) headers.cookie = `${browser.cookie}; ${headers.cookie}`;
    let response: RawResponse;
    try {
      response = await Promise.race([
        browser.request(r.target, { method: r.method, headers, body: r.body }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer within 20 s")), 20_000)),
      ]);
    } catch (error) {
      return [`no answer: ${(error as Error).message}`];
    } finally {
      sent++;
    }
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    const found = securityHeaderProblems(response, r.target.split("?")[0]!);
    if (response.status >= 500) found.unshift(`status ${response.status}`);
    if (/\n\s+at [\w<.]+ \(|node_modules\//.test(response.body)) found.push("a stack trace in the body");
    return found.map((p) => `${p} — ${describeAnswer(response)}`);
  }

  const show = (r: Sent) => `${r.who} ${r.method} ${r.target} ${JSON.stringify(r.headers)} ${r.body === undefined ? "" : JSON.stringify(String(r.body).slice(0, 300))}`;

  it("covers every page and route handler of app/", () => {
    const kinds = ENTRIES.map((e) => e.kind);
    expect(kinds).toContain("page");
    expect(kinds).toContain("route");
    expect(ENTRIES.length).toBeGreaterThanOrEqual(15);
    expect(ACTIONS.length).toBeGreaterThanOrEqual(5);
  });

  it("answers every page and route, for every role and method, without a 5xx and with the headers", async () => {
    const failures: string[] = [];
    for (const entry of ENTRIES) {
      const concrete = entry.pattern.replace(/\[\.\.\.[^\]]+\]/g, "x/y").replace(/\[[^\]]+\]/g, "1");
      for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        for (const w of ["anonymous", "staff", "admin"] as const) {
          const r: Sent = { who: w, method, target: concrete, headers: method === "GET" || method === "HEAD" ? {} : { "content-type": "application/json" }, body: method === "GET" || method === "HEAD" ? undefined : "{}" };
          for (const p of await problems(r)) failures.push(`${show(r)}: ${p}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it("answers hostile requests without a 5xx and with the headers (paths, queries, headers, methods, bodies)", async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const found = await problems(r);
        if (found.length > 0) throw new Error(`${show(r)}\n  ${found.join("\n  ")}`);
      }),
      { seed: SEED, numRuns: 6000, interruptAfterTimeLimit: 120_000 },
    );
  }, 300_000);

  it("answers every server action with hostile arguments without a 5xx", async () => {
    const actionRequest = fc.record({
      who,
      action: fc.constantFrom(...ACTIONS),
      type: fc.constantFrom("text/plain;charset=UTF-8", `multipart/form-data; boundary=${BOUNDARY}`, "application/json", "multipart/form-data"),
      body,
      origin: fc.constantFrom(undefined, "SAME", "http://evil.example"),
      tree: fc.option(routerState, { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(actionRequest, async ({ who: w, action, type, body: b, origin, tree: t }) => {
        const r: Sent = {
          who: w,
          method: "POST",
          target: action.page,
          headers: { "next-action": action.id, "content-type": type, accept: "text/x-component", ...(origin ? { origin } : {}), ...(t ? { "next-router-state-tree": t } : {}) },
          body: b,
        };
        const found = await problems(r);
        if (found.length > 0) throw new Error(`${action.name}: ${show(r)}\n  ${found.join("\n  ")}`);
      }),
      { seed: SEED, numRuns: 1000, interruptAfterTimeLimit: 45_000 },
    );
  }, 180_000);
});
