import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, rawRequest, startConsole, type ConsoleServer, type RawResponse } from "../helpers/console-server";
import { builtServerActions } from "../helpers/built-app";
import { describeAnswer, securityHeaderProblems } from "../helpers/security-headers";

// The inputs the security reviews found answering 500 or naming one record several ways,
// each sent as an attacker sends it, against the production build over HTTP. Every answer is a
// 4xx (or the page's own explanation) with the security headers. tests/http/fuzz.test.ts looks
// for the ones nobody has found yet.

const PASSWORD = "hostile-input-pass-123";
const ADMIN = { email: "ada@hostile.test", password: PASSWORD, role: "admin" as const };
const STAFF = { email: "sam@hostile.test", password: PASSWORD, role: "staff" as const };

function expectRefused(response: RawResponse, path: string, statuses: number[] = [400]) {
  expect(statuses, `${path}: ${describeAnswer(response)}`).toContain(response.status);
  expect(securityHeaderProblems(response, path), path).toEqual([]);
  expect(response.body, path).not.toMatch(/\n\s+at /);
}

describe("hostile input over HTTP", () => {
  let server: ConsoleServer;
  let admin: Browser;
  let staff: Browser;

  beforeAll(async () => {
    server = await startConsole("pglite", { users: [ADMIN, STAFF] });
    admin = new Browser(server.url);
    staff = new Browser(server.url);
    expect((await admin.signIn(ADMIN.email, PASSWORD)).status).toBe(200);
    expect((await staff.signIn(STAFF.email, PASSWORD)).status).toBe(200);
  });
  afterAll(async () => server?.close());

  const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  describe("year 0000 and other days the database cannot hold", () => {
    for (const day of ["0000-01-01", "0001-01-01", "1899-12-31", "2101-01-01", "9999-12-31"]) {
      it(`refuses travel_date_from=${day} on the API and the export request with a 400 naming the filter`, async () => {
        for (const key of ["travel_date_from", "travel_date_to", "created_from", "created_to"]) {
          const list = await staff.request(`/api/v1/subscribers?${key}=${day}`);
          expectRefused(list, `list ${key}=${day}`);
          expect(JSON.parse(list.body).error.fields).toHaveProperty(key);

          const exported = await staff.request("/api/v1/subscribers/export", json({ [key]: day }));
          expectRefused(exported, `export ${key}=${day}`);
          expect(JSON.parse(exported.body).error.fields).toHaveProperty(key);
        }
        const branches = await staff.request(`/api/v1/branches?created_from=${day}`);
        expectRefused(branches, `branches created_from=${day}`);
      });
    }

    it("answers the list pages with a 400 that explains it", async () => {
      for (const [who, path, key] of [
        [staff, "/subscribers?travel_date_from=0000-01-01", "travel_date_from"],
        [staff, "/subscribers?created_to=9999-12-31&page=2", "created_to"],
        [staff, "/branches?created_from=0000-01-01", "created_from"],
        [admin, "/users?page=abc", "page"],
        [admin, "/audit?at_from=0000-01-01", "at_from"],
      ] as const) {
        const page = await who.request(path);
        expectRefused(page, path);
        expect(page.headers["content-type"], path).toMatch(/^text\/html/);
        expect(page.body, path).toContain("This address has values the list cannot use");
        expect(page.body, path).toContain(key);
      }
      // A query the list reads, and the same page without one, are 200.
      for (const path of ["/subscribers?travel_date_from=2027-01-01", "/branches", "/subscribers?q=a"]) expect((await staff.request(path)).status, path).toBe(200);
    });

    it("keeps taking every day from 1900 to 2100", async () => {
      const list = await staff.request("/api/v1/subscribers?travel_date_from=1900-01-01&travel_date_to=2100-12-31&created_from=1900-01-01");
      expect(list.status, list.body).toBe(200);
    });
  });

  describe("malformed percent-encoding in a path", () => {
    for (const path of [
      "/api/v1/branches/%FF",
      "/api/v1/exports/%FF/download",
      "/branches/%FF/edit",
      "/api/auth/%FF",
      "/api/v1/branches/%C0%AF",
      "/branches/%E0%A4%A/edit",
      "/branches/%/edit",
      "/api/v1/no-such/%FF",
    ]) {
      it(`answers ${path} with a 400`, async () => {
        expectRefused(await admin.request(path), path);
        expectRefused(await rawRequest(server.url, path), `${path} (anonymous)`);
      });
    }

    it("still serves well-formed escapes (UTF-8 in a path)", async () => {
      const response = await admin.request("/api/v1/branches/%E2%82%AC");
      expect(response.status).toBe(404);
    });
  });

  describe("a malformed Next-Router-State-Tree header", () => {
    const trees = ["garbage", "%7B", "%FF", "null", "{}", "[1]", encodeURIComponent(JSON.stringify(["", { children: 5 }])), "x".repeat(41_000)];
    for (const tree of trees) {
      it(`answers RSC: 1 with tree ${tree.slice(0, 40)} with a 400`, async () => {
        for (const path of ["/subscribers", "/branches/1/edit", "/login"]) {
          const response = await admin.request(`${path}?_rsc=x`, { headers: { rsc: "1", "next-router-state-tree": tree } });
          // Beyond Node's header limit (16 KB) Node itself refuses it: 431, with the headers too.
          expectRefused(response, path, tree.length > 16_000 ? [431] : [400]);
        }
      });
    }

    it("still answers a navigation with the tree a browser sends", async () => {
      const tree = encodeURIComponent(JSON.stringify(["", { children: ["(console)", { children: ["subscribers", { children: ["__PAGE__", {}] }] }] }, null, null]));
      let response = await admin.request("/branches", { headers: { rsc: "1", "next-router-state-tree": tree } });
      if (response.status === 307 && response.headers.location?.includes("_rsc=")) {
        response = await admin.request(response.headers.location, { headers: { rsc: "1", "next-router-state-tree": tree } });
      }
      expect(response.status, describeAnswer(response)).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/x-component/);
    });
  });

  it("answers TRACE with a 405 and the headers", async () => {
    for (const path of ["/subscribers", "/api/v1/branches", "/"]) expectRefused(await admin.request(path, { method: "TRACE" }), `TRACE ${path}`, [405]);
  });

  it("has no image optimizer: /_next/image is a 404 with the headers", async () => {
    for (const path of ["/_next/image?url=/subscribers", "/_next/image?url=%2Fsubscribers&w=64&q=75", "/_next/image?url=https://example.com/x.png&w=64&q=75"]) {
      expectRefused(await admin.request(path), path, [404]);
    }
  });

  it("ships an icon: /favicon.ico is an image with the headers, not the HTML 404", async () => {
    const response = await rawRequest(server.url, "/favicon.ico");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^image\//);
    expect(securityHeaderProblems(response, "/favicon.ico")).toEqual([]);
  });

  it("keeps Next's immutable caching of its build output, with the headers", async () => {
    const login = await rawRequest(server.url, "/login");
    const chunk = /src="(\/_next\/static\/[^"]+\.js(?:\?dpl=[^"]*)?)"/.exec(login.body)?.[1];
    expect(chunk).toBeTruthy();
    const response = await rawRequest(server.url, chunk!);
    expect(response.status).toBe(200);
    expect(response.headers["cache-control"]).toContain("immutable");
    expect(securityHeaderProblems(response, chunk!)).toEqual([]);
  });

  it("answers an unknown path, an unknown build file and Next's own redirects with the headers", async () => {
    for (const path of ["/nothing-here", "/_next/static/nothing.js", "/_next/nothing", "//subscribers", "/subscribers/"]) {
      const response = await rawRequest(server.url, path);
      expect(response.status, `${path}: ${describeAnswer(response)}`).toBeLessThan(500);
      expect(securityHeaderProblems(response, path), path).toEqual([]);
    }
  });

  describe("one spelling per id", () => {
    let id: number;
    beforeAll(async () => {
      const created = await admin.request("/api/v1/branches", json({ name: "Spelling branch" }));
      expect(created.status, created.body).toBe(201);
      id = JSON.parse(created.body).id as number;
    });

    const spellings = (n: number) => [`0x${n.toString(16)}`, `0b${n.toString(2)}`, `0o${n.toString(8)}`, `${n}e0`, `${n}.0`, `%20${n}`, `${n}%20`, `0${n}`, `+${n}`, `${n}n`, `%EF%BC%9${n % 10}`];

    it("names a branch only by its digits on the API (404 for every other spelling)", async () => {
      expect((await staff.request(`/api/v1/branches/${id}`)).status).toBe(200);
      for (const spelling of spellings(id)) {
        const response = await staff.request(`/api/v1/branches/${spelling}`);
        expect(response.status, `/api/v1/branches/${spelling}: ${describeAnswer(response)}`).toBe(404);
        const patched = await admin.request(`/api/v1/branches/${spelling}`, { ...json({ name: "Renamed" }), method: "PATCH" });
        expect(patched.status, `PATCH ${spelling}`).toBe(404);
      }
      expect(JSON.parse((await staff.request(`/api/v1/branches/${id}`)).body).name).toBe("Spelling branch");
    });

    it("names a branch only by its digits on /branches/{id}/edit", async () => {
      expect((await admin.request(`/branches/${id}/edit`)).status).toBe(200);
      for (const spelling of spellings(id)) {
        const response = await admin.request(`/branches/${spelling}/edit`);
        expect(response.status, `/branches/${spelling}/edit`).toBe(404);
        expect(securityHeaderProblems(response, "/branches/x/edit")).toEqual([]);
      }
    });

    it("takes the id filter in the same one spelling", async () => {
      expect((await staff.request(`/api/v1/branches?id=${id}`)).status).toBe(200);
      for (const spelling of [`0${id}`, `${id}.0`, `0x${id.toString(16)}`]) {
        const response = await staff.request(`/api/v1/branches?id=${spelling}`);
        expect(response.status, spelling).toBe(400);
        expect(JSON.parse(response.body).error.fields).toHaveProperty("id");
      }
    });
  });

  describe("an export body is the list's filters, as strings, and nothing else", () => {
    for (const [body, key] of [
      [{ email: { $ne: "x" } }, "email"],
      [{ emial: "ada@example.com" }, "emial"],
      [{ email: ["a", "b"] }, "email"],
      [{ is_duplicate: true }, "is_duplicate"],
      [{ id: 54 }, "id"],
      [{ first_name: null }, "first_name"],
      [{ page: 2 }, "page"],
      ['{"__proto__":{"email":"x"},"constructor":"y"}', "__proto__"],
    ] as [unknown, string][]) {
      const text = typeof body === "string" ? body : JSON.stringify(body);
      it(`refuses ${text} with a 400 naming ${key}`, async () => {
        const response = await staff.request("/api/v1/subscribers/export", { method: "POST", headers: { "content-type": "application/json" }, body: text });
        expectRefused(response, text);
        expect(Object.keys(JSON.parse(response.body).error.fields)).toContain(key);
      });
    }

    for (const body of ["[]", "null", '"email"', "5"]) {
      it(`refuses the body ${body} with a 400`, async () => {
        const response = await staff.request("/api/v1/subscribers/export", { method: "POST", headers: { "content-type": "application/json" }, body });
        expectRefused(response, body);
      });
    }

    // The same filters in a POST's query string (no body): as strict as a body. (`?__proto__=x`
    // never reaches a route: Next drops that key when it parses the address, so it is no filter
    // at all; tests/unit/export-filters.test.ts shows the parser would name it.)
    for (const [query, key] of [
      ["emial=nobody", "emial"],
      ["email=a&email=b", "email"],
      ["email[$ne]=x", "email[$ne]"],
      ["constructor=x", "constructor"],
      ["travel_date_from=0000-01-01", "travel_date_from"],
    ] as const) {
      it(`refuses the query ?${query} of an export request with a 400 naming ${key}`, async () => {
        const response = await admin.request(`/api/v1/subscribers/export?${query}`, { method: "POST" });
        expectRefused(response, query);
        expect(Object.keys(JSON.parse(response.body).error.fields)).toContain(key);
      });
    }

    it("refuses filters in both the query and the body, naming the query's", async () => {
      const response = await admin.request("/api/v1/subscribers/export?email=nobody", json({}));
      expectRefused(response, "query and body");
      expect(Object.keys(JSON.parse(response.body).error.fields)).toEqual(["email"]);
    });

    it("still takes the filters of a query string alone", async () => {
      const response = await admin.request("/api/v1/subscribers/export?email=nobody.matches.this&sort=-email", { method: "POST" });
      expect(response.status, response.body).toBe(202);
      expect(JSON.parse(response.body)).toMatchObject({ filters: { email: "nobody.matches.this" }, total_rows: 0 });
    });
  });

  // The trash, bulk changes and duplicates routes (docs/API.md), each body and query as an
  // attacker writes it, with real subscribers behind it so that a body read the wrong way would
  // change something: every answer a 400 naming the member (`fields`), nothing changed.
  describe("bodies, ids and queries of the trash, bulk change and duplicates routes", () => {
    const DISMISS = "/api/v1/subscribers/duplicates/dismiss";
    const routes = { dismiss: DISMISS, undo: `${DISMISS}/undo`, merge: "/api/v1/subscribers/merge", bulk: "/api/v1/subscribers/bulk" };
    let a = 0, b = 0, c = 0, d = 0;
    let versions: Record<number, string> = {};
    const raw = (path: string, text: string) => admin.request(path, { method: "POST", headers: { "content-type": "application/json" }, body: text });
    const fieldsOf = (body: string) => Object.keys((JSON.parse(body) as { error: { fields?: object } }).error.fields ?? {});
    /** The state a refused request must leave as it was: the four subscribers' versions and the bulk changes' count. */
    const snapshot = async () => {
      const records = await Promise.all([a, b, c, d].map(async (id) => JSON.parse((await admin.request(`/api/v1/subscribers/${id}`)).body) as { updated_at: string; is_mandatory: boolean }));
      const trash = JSON.parse((await admin.request("/api/v1/trash/subscribers")).body) as { pagination: { total: number } };
      return { records, trashed: trash.pagination.total };
    };

    beforeAll(async () => {
      const made: number[] = [];
      for (let i = 0; i < 4; i++) {
        // a and c share an email, b and d a mobile: two groups of duplicates.
        const created = await admin.request("/api/v1/subscribers", json({ first_name: `Twin${i}`, last_name: "Hostile", email: i % 2 ? `twin${i}@hostile.test` : "twin@hostile.test", mobile: i % 2 ? "+447911200011" : `+44791120002${i}`, subscription_status: "active", is_mandatory: false }));
        expect(created.status, created.body).toBe(201);
        made.push(JSON.parse(created.body).id as number);
      }
      [a, b, c, d] = made as [number, number, number, number];
      versions = Object.fromEntries(await Promise.all(made.map(async (id) => [id, JSON.parse((await admin.request(`/api/v1/subscribers/${id}`)).body).updated_at as string] as const)));
    });

    it("refuses a member sent twice, at any depth, naming it: the last one never wins", async () => {
      const before = await snapshot();
      const merge = (extra: string) => `{"survivor_id":${a},"merged_ids":[${c}],"updated_at":{"${a}":"${versions[a]}","${c}":"${versions[c]}"}${extra}}`;
      for (const [path, text, field] of [
        [routes.dismiss, `{"ids":[${a},${c}],"ids":[${b},${d}]}`, "ids"],
        [routes.undo, `{"ids":[${a},${c}],"ids":[${b},${d}]}`, "ids"],
        [routes.merge, `{"survivor_id":${c},"survivor_id":${a},"merged_ids":[${c}],"updated_at":{"${a}":"${versions[a]}","${c}":"${versions[c]}"}}`, "survivor_id"],
        [routes.merge, merge(`,"values":{"first_name":${a},"first_name":${c}}`), "values.first_name"],
        [routes.merge, `{"survivor_id":${a},"merged_ids":[${c}],"updated_at":{"${a}":"${versions[a]}","${a}":"${versions[a]}","${c}":"${versions[c]}"}}`, `updated_at.${a}`],
        // Read as JSON.parse reads it, the last `filters` ({}) would change every subscriber.
        [routes.bulk, `{"filters":{"id":"${a}"},"change":{"is_mandatory":true},"filters":{}}`, "filters"],
        [routes.bulk, `{"ids":[${a}],"change":{"is_mandatory":false,"is_mandatory":true}}`, "change.is_mandatory"],
        [routes.bulk, `{"ids":[${a}],"change":{"subscription_status":"active"},"change":{"delete":true}}`, "change"],
      ] as const) {
        const response = await raw(path, text);
        expectRefused(response, `${path} ${text}`);
        expect(fieldsOf(response.body), `${path} ${text}`).toEqual([field]);
      }
      expect(await snapshot()).toEqual(before);
    });

    it("refuses __proto__ and constructor as members, at the top and inside, by name", async () => {
      const before = await snapshot();
      const version = (id: number) => `"${id}":"${versions[id]}"`;
      for (const [path, text, field] of [
        [routes.dismiss, `{"ids":[${a},${c}],"__proto__":{"ids":[${b},${d}]}}`, "__proto__"],
        [routes.undo, `{"ids":[${a},${c}],"constructor":{"prototype":{"ids":[${b},${d}]}}}`, "constructor"],
        [routes.merge, `{"survivor_id":${a},"merged_ids":[${c}],"updated_at":{${version(a)},${version(c)}},"__proto__":{"merged_ids":[${b}]}}`, "__proto__"],
        [routes.merge, `{"survivor_id":${a},"merged_ids":[${c}],"updated_at":{${version(a)},${version(c)}},"values":{"__proto__":${c}}}`, "values.__proto__"],
        [routes.merge, `{"survivor_id":${a},"merged_ids":[${c}],"updated_at":{${version(a)},${version(c)}},"values":{"constructor":${c}}}`, "values.constructor"],
        [routes.merge, `{"survivor_id":${a},"merged_ids":[${c}],"updated_at":{${version(a)},${version(c)},"__proto__":"${versions[a]}"}}`, "updated_at"],
        [routes.bulk, `{"filters":{"__proto__":{"id":"${a}"}},"change":{"is_mandatory":true}}`, "filters.__proto__"],
        [routes.bulk, `{"filters":{"constructor":"x"},"change":{"is_mandatory":true}}`, "filters.constructor"],
        [routes.bulk, `{"ids":[${a}],"change":{"is_mandatory":true},"__proto__":{"change":{"delete":true}}}`, "__proto__"],
        // One of the change's shapes, each strict: none of them holds a __proto__.
        [routes.bulk, `{"ids":[${a}],"change":{"__proto__":{"delete":true},"is_mandatory":true}}`, "change"],
      ] as const) {
        const response = await raw(path, text);
        expectRefused(response, `${path} ${text}`);
        // A key the object does not have is named in `fields`, or (zod's strict objects) in the message.
        expect(`${fieldsOf(response.body).join(" ")} ${JSON.parse(response.body).error.message} ${JSON.stringify(JSON.parse(response.body).error.fields)}`, `${path} ${text}`).toContain(field);
      }
      expect(await snapshot()).toEqual(before);
    });

    it("refuses ids that are not whole numbers in range, arrays for one value and one value for an array", async () => {
      const before = await snapshot();
      const updated = `"updated_at":{"${a}":"${versions[a]}","${c}":"${versions[c]}"}`;
      const cases: [string, string, string][] = [];
      for (const bad of [`" ${a}"`, `"${a} "`, `"${a}e0"`, `"1e3"`, `"0${a}"`, "-1", "0", "1.5", "99999999999", "null", "true", `[${a}]`, `{"id":${a}}`]) {
        cases.push([routes.dismiss, `{"ids":[${bad},${c}]}`, "ids"]);
        cases.push([routes.undo, `{"ids":[${c},${bad}]}`, "ids"]);
        cases.push([routes.merge, `{"survivor_id":${bad},"merged_ids":[${c}],${updated}}`, "survivor_id"]);
        cases.push([routes.merge, `{"survivor_id":${a},"merged_ids":[${bad}],${updated}}`, "merged_ids"]);
        cases.push([routes.bulk, `{"ids":[${bad}],"change":{"is_mandatory":true}}`, "ids"]);
      }
      cases.push(
        [routes.dismiss, `{"ids":${a}}`, "ids"],
        [routes.dismiss, `{"ids":"${a},${c}"}`, "ids"],
        [routes.dismiss, `{"ids":{"0":${a},"1":${c}}}`, "ids"],
        [routes.dismiss, `{"ids":[${a},${a}]}`, "ids"],
        [routes.merge, `{"survivor_id":${a},"merged_ids":${c},${updated}}`, "merged_ids"],
        [routes.merge, `{"survivor_id":${a},"merged_ids":[${c}],"values":[${c}],${updated}}`, "values"],
        [routes.merge, `{"survivor_id":${a},"merged_ids":[${c}],"values":{"first_name":[${c}]},${updated}}`, "values.first_name"],
        [routes.merge, `{"survivor_id":${a},"merged_ids":[${c}],"updated_at":["${versions[a]}","${versions[c]}"]}`, "updated_at"],
        [routes.merge, `{"survivor_id":${a},"merged_ids":[${c}],"updated_at":{"${a}":["${versions[a]}"],"${c}":"${versions[c]}"}}`, `updated_at.${a}`],
        // These two answered 500: the checks after "updated_at is an object" ran on null.
        [routes.merge, `{"survivor_id":${a},"merged_ids":[${c}],"updated_at":null}`, "updated_at"],
        [routes.merge, `{"survivor_id":${a},"merged_ids":[${c}]}`, "updated_at"],
        [routes.bulk, `{"ids":${a},"change":{"is_mandatory":true}}`, "ids"],
        [routes.bulk, `{"ids":[${a}],"change":[{"is_mandatory":true}]}`, "change"],
        [routes.bulk, `{"ids":[${a}],"change":{"is_mandatory":"true"}}`, "change"],
        [routes.bulk, `{"ids":[${a}],"change":{"subscription_status":["active"]}}`, "change"],
        [routes.bulk, `{"filters":{"email":["a","b"]},"change":{"is_mandatory":true}}`, "filters.email"],
        [routes.bulk, `{"filters":[["id","${a}"]],"change":{"is_mandatory":true}}`, "filters"],
        [routes.bulk, `{"filters":"id=${a}","change":{"is_mandatory":true}}`, "filters"],
      );
      for (const [path, text, field] of cases) {
        const response = await raw(path, text);
        expectRefused(response, `${path} ${text}`);
        expect(fieldsOf(response.body).some((key) => key === field || key.startsWith(`${field}.`)), `${path} ${text}: ${response.body}`).toBe(true);
      }
      expect(await snapshot()).toEqual(before);
    });

    it("refuses a path with other segments, or an id in another spelling, with the API's 404 or 405", async () => {
      for (const [method, path] of [
        ["POST", "/api/v1/trash/subscribers/1/restore/x"],
        ["DELETE", "/api/v1/trash/subscribers/1/extra"],
        ["GET", "/api/v1/trash/subscribers/1/extra"],
        ["POST", "/api/v1/subscribers/merges/1/undo/x"],
        ["POST", "/api/v1/subscribers/merge/x"],
        ["POST", "/api/v1/subscribers/duplicates/dismiss/undo/x"],
        ["GET", "/api/v1/subscribers/duplicates/x"],
        ["POST", "/api/v1/subscribers/bulk/AAAAAAAAAAAAAAAAAAAAAA/undo/x"],
        ["GET", "/api/v1/trash"],
        ["GET", "/api/v1/trash/users"],
      ] as const) {
        const response = await admin.request(path, { method });
        expectRefused(response, `${method} ${path}`, [404, 405]);
        expect(JSON.parse(response.body).error.code, `${method} ${path}`).toMatch(/^(not_found|method_not_allowed)$/);
      }
      for (const id of ["1e3", "%201", "1%20", "-1", "0", "01", "99999999999", "0x1", "abc", "%00"]) {
        for (const [method, path] of [["POST", `/api/v1/trash/subscribers/${id}/restore`], ["DELETE", `/api/v1/trash/branches/${id}`], ["GET", `/api/v1/subscribers/bulk/${id}`], ["POST", `/api/v1/subscribers/bulk/${id}/undo`], ["POST", `/api/v1/subscribers/merges/${id}/undo`]] as const) {
          expectRefused(await admin.request(path, { method }), `${method} ${path}`, [404]);
        }
      }
    });

    it("refuses a query parameter sent twice on the lists and their pages", async () => {
      for (const [path, key] of [
        ["/api/v1/trash/subscribers?page=1&page=2", "page"],
        ["/api/v1/trash/branches?sort=id&sort=-id", "sort"],
        ["/api/v1/trash/subscribers?name=a&name=b", "name"],
        ["/api/v1/trash/subscribers?deleted_from=2026-01-01&deleted_from=2026-02-01", "deleted_from"],
        ["/api/v1/subscribers/duplicates?rule=email&rule=mobile", "rule"],
        ["/api/v1/subscribers/duplicates?page=1&page=2", "page"],
        ["/api/v1/subscribers/duplicates?q=a&q=b", "q"],
      ] as const) {
        const response = await admin.request(path);
        expectRefused(response, path);
        expect(fieldsOf(response.body), path).toEqual([key]);
      }
      for (const [path, key] of [
        ["/trash?kind=a&kind=b", "kind"],
        ["/trash?kind=subscribers&kind=branches", "kind"],
        ["/trash?page=1&page=2", "page"],
        ["/subscribers/duplicates?rule=email&rule=mobile", "rule"],
      ] as const) {
        const page = await admin.request(path);
        expectRefused(page, path);
        expect(page.headers["content-type"], path).toMatch(/^text\/html/);
        expect(page.body, path).toContain("This address has values the list cannot use");
        expect(page.body, path).toContain(key);
      }
      expect((await admin.request("/trash?kind=branches")).status).toBe(200);
    });
  });

  // Found by tests/http/fuzz.test.ts: bodies React's decoder throws on, and Origins Next compares
  // only to answer 500, reached every page that serves an action.
  describe("server action requests Next answered with 500", () => {
    const actions = builtServerActions().filter((a) => a.name !== "signOutAction");
    const BOUNDARY = "----formdata-hostile-test";
    const multipart = (fields: [string, string][]) =>
      fields.map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join("") + `--${BOUNDARY}--\r\n`;

    it("refuses bodies React cannot decode with a 400, for every action", async () => {
      expect(actions.length).toBeGreaterThan(3);
      for (const { id, name, page } of actions) {
        for (const [type, body] of [
          ["text/plain;charset=UTF-8", "garbage"],
          ["text/plain;charset=UTF-8", '["$1"]'],
          ["text/plain;charset=UTF-8", '["$F1"]'],
          ["text/plain;charset=UTF-8", "null"],
          ["text/plain;charset=UTF-8", ""],
          ["application/json", "{"],
          [`multipart/form-data; boundary=${BOUNDARY}`, "garbage"],
          [`multipart/form-data; boundary=${BOUNDARY}`, multipart([["0", '["$1"]']])],
          ["multipart/form-data", multipart([["0", "[]"]])],
        ]) {
          const response = await admin.request(page, { method: "POST", headers: { "next-action": id, "content-type": type! }, body: body! });
          expectRefused(response, `${name} ${type} ${body!.slice(0, 30)}`);
        }
      }
    });

    it("still runs an action with plain arguments", async () => {
      const exportAction = actions.find((a) => a.name === "requestExportAction")!;
      const response = await staff.request(exportAction.page, {
        method: "POST",
        headers: { "next-action": exportAction.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" },
        body: JSON.stringify([{ email: "nobody.matches" }]),
      });
      expect(response.status, describeAnswer(response)).toBe(200);
      // The body reached the action after the check read it: its filter was counted (no match, so nothing is queued).
      expect(response.body).toContain("No subscriber matches these filters, so there is nothing to export.");
    });

    it("refuses a form posted without JavaScript that does not parse, or binds arguments", async () => {
      for (const body of ["garbage", `--${BOUNDARY}\r\n`, multipart([["$ACTION_REF_1", ""], ["$ACTION_1:0", '{"id":"x","bound":null}']])]) {
        expectRefused(await admin.request("/subscribers", { method: "POST", headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` }, body }), body.slice(0, 30));
      }
    });

    it("refuses an action from another origin, or with an Origin that is no URL, with a 403", async () => {
      const { id, page } = actions[0]!;
      for (const path of [page, "/api/V1/branches", "/no-such-page"]) {
        for (const origin of ["http://evil.example", "null", "garbage"]) {
          const response = await admin.request(path, { method: "POST", headers: { "next-action": id, "content-type": "text/plain", origin }, body: "[{}]" });
          expectRefused(response, `${path} ${origin}`, [403]);
        }
      }
    });

    it("checks action bodies on unknown paths too (the 404 page runs actions)", async () => {
      const { id } = actions[0]!;
      for (const path of ["/api/V1/branches", "/no-such-page"]) {
        expectRefused(await admin.request(path, { method: "POST", headers: { "next-action": id, "content-type": "text/plain" }, body: '["$1"]' }), path);
      }
    });
  });

  describe("names people type", () => {
    const ZWNJ = "\u200c";
    const persian = `نیک${ZWNJ}نام`;
    const hebrew = "בן־גוריון";

    it("are refused with a bidi override, a control or an invisible end, on the API", async () => {
      for (const name of ["Ada\u202eecalvoL", "Ada\u2066x\u2069", "Ada\u2028Lovelace", "Ada\u0085", "\u200bAda", "Ada\ufeff", "Ada\tLovelace"]) {
        const response = await admin.request("/api/v1/branches", json({ name }));
        expectRefused(response, JSON.stringify(name));
        expect(JSON.parse(response.body).error.fields).toHaveProperty("name");
      }
    });

    it("are kept with the joiners real names need, and shown isolated (<bdi>) on the lists, the header and /audit", async () => {
      const branch = await admin.request("/api/v1/branches", json({ name: persian }));
      expect(branch.status, branch.body).toBe(201);
      expect(JSON.parse(branch.body).name).toBe(persian);
      const subscriber = await admin.request(
        "/api/v1/subscribers",
        json({ first_name: persian, last_name: hebrew, email: "niknam@example.com", mobile: "+44 7400 123456", branch_id: JSON.parse(branch.body).id, subscription_status: "active", is_mandatory: false }),
      );
      expect(subscriber.status, subscriber.body).toBe(201);

      const branches = await admin.request(`/branches?name=${encodeURIComponent(persian)}`);
      expect(branches.body).toContain(`<bdi>${persian}</bdi>`);
      const subscribers = await admin.request(`/subscribers?email=niknam`);
      // The table's cells are the <bdi> itself (styled as a block that cuts a long value).
      const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      for (const name of [persian, hebrew, "niknam@example.com"]) expect(subscribers.body, name).toMatch(new RegExp(`<bdi[^>]*>${escape(name)}</bdi>`));
      const audit = await admin.request("/audit?action=branch.create");
      expect(audit.body).toMatch(new RegExp(`<bdi[^>]*>[^<]*${persian}[^<]*</bdi>`));
      expect(audit.body).toContain(`<bdi>${ADMIN.email}</bdi>`);
      expect(subscribers.body).toMatch(/<bdi class="[^"]*">ada<\/bdi>/); // the header's name of the signed-in user
    });

    it("with markup in them reach the list's rows (JSX, which React escapes) as text, never as markup", async () => {
      const [first, last, sheet] = [`<img src=x onerror="alert(1)">`, `O'Brien & "Sons"</bdi><script>alert(2)</script>`, `'><svg onload=alert(3)>`];
      const created = await admin.request(
        "/api/v1/subscribers",
        json({ first_name: first, last_name: last, email: "markup.rows@example.com", mobile: "+44 7400 654321", sheet_name: sheet, subscription_status: "active", is_mandatory: true }),
      );
      expect(created.status, created.body).toBe(201);
      // Every field shown in the row, the sheet too (a column a narrow default leaves out).
      const page = await admin.request("/subscribers?email=markup.rows&columns=first_name,last_name,email,sheet");
      expect(page.status).toBe(200);
      const row = page.body.slice(page.body.indexOf("<tbody"), page.body.indexOf("</tbody>"));
      for (const hostile of ["<img", "<script", "<svg", `onerror="`]) expect(row, hostile).not.toContain(hostile);
      expect(row).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
      expect(row).toContain("O&#x27;Brien &amp; &quot;Sons&quot;&lt;/bdi&gt;&lt;script&gt;alert(2)&lt;/script&gt;");
      expect(row).toContain("&#x27;&gt;&lt;svg onload=alert(3)&gt;");
    });
  });
});
