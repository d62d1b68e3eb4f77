import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtServerActions } from "../helpers/built-app";
import { Browser, rawRequest, startConsole, type ConsoleServer } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";

/** An error body without its request id, which every answer has its own of (docs/API.md). */
function sameFor(body: string): unknown {
  const parsed = JSON.parse(body) as { error?: { request_id?: unknown } };
  expect(parsed.error?.request_id).toEqual(expect.any(String));
  delete parsed.error?.request_id;
  return parsed;
}

// Branch scope against the production build over real HTTP: a staff member limited to branch A
// tries every way across the boundary (another branch's id in the path, the body, the filters, an
// import file, a bulk change's `ids`, an export's filters, their API token) and gets what an
// unknown id gets; a scope set or removed takes effect on the next request, sessions and tokens
// alike (docs/decisions/0028-branch-scope.md).

const PASSWORD = "scope-http-password-1";
const ADMIN = { email: "admin@scope.test", password: PASSWORD, role: "admin" as const };
const STAFF = { email: "staff@scope.test", password: PASSWORD, role: "staff" as const };

type Json = Record<string, unknown>;
const parse = (body: string) => JSON.parse(body) as Json;
const json = (method: string, body: unknown) => ({ method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

for (const kind of testDbKinds()) {
  describe(`branch scope over HTTP on ${kind}`, () => {
    let server: ConsoleServer;
    let admin: Browser;
    let staff: Browser;
    let staffId = 0;
    const branch = { a: 0, b: 0 };
    const subscriber = { a: [] as number[], b: [] as number[], none: 0 };

    const setScope = async (branch_ids: number[] | null) => {
      const answer = await admin.request(`/api/v1/users/${staffId}`, json("PATCH", { branch_ids }));
      expect(answer.status, answer.body).toBe(200);
    };
    const total = async (who: Browser | string, query = "") => {
      const answer = typeof who === "string" ? await rawRequest(server.url, `/api/v1/subscribers${query}`, { headers: { authorization: `Bearer ${who}` } }) : await who.request(`/api/v1/subscribers${query}`);
      expect(answer.status, answer.body).toBe(200);
      return (parse(answer.body).pagination as { total: number }).total;
    };

    beforeAll(async () => {
      server = await startConsole(kind, { users: [ADMIN, STAFF], env: { JOB_POLL_SECONDS: "1" } });
      admin = new Browser(server.url, "127.0.0.51");
      staff = new Browser(server.url, "127.0.0.52");
      expect((await admin.signIn(ADMIN.email, PASSWORD)).status).toBe(200);
      // Signed in before any scope: the scope set later holds on this same session's next request.
      expect((await staff.signIn(STAFF.email, PASSWORD)).status).toBe(200);
      for (const key of ["a", "b"] as const) {
        const made = await admin.request("/api/v1/branches", json("POST", { name: `Scope ${key.toUpperCase()}` }));
        expect(made.status, made.body).toBe(201);
        branch[key] = parse(made.body).id as number;
      }
      let n = 0;
      const create = async (branch_id: number | null) => {
        n++;
        const made = await admin.request(
          "/api/v1/subscribers",
          json("POST", { first_name: `Sub${n}`, last_name: "Scope", email: `sub${n}@scope.test`, mobile: `+4474005552${String(n).padStart(2, "0")}`, branch_id, subscription_status: "active", is_mandatory: false }),
        );
        expect(made.status, made.body).toBe(201);
        return parse(made.body).id as number;
      };
      subscriber.a = [await create(branch.a), await create(branch.a)];
      subscriber.b = [await create(branch.b), await create(branch.b)];
      subscriber.none = await create(null);
      const users = parse((await admin.request(`/api/v1/users?email=${encodeURIComponent(STAFF.email)}`)).body).data as { id: number; email: string }[];
      staffId = users.find((u) => u.email === STAFF.email)!.id;
    });
    afterAll(async () => server?.close());

    it("puts a scope in force on the session's next request, and lifts it the same way", async () => {
      expect(await total(staff)).toBe(5);
      await setScope([branch.a]);
      expect(await total(staff)).toBe(2);
      const page = await staff.request("/subscribers");
      expect(page.status).toBe(200);
      expect(page.body).toMatch(/Your branches: (<!-- -->)?<bdi>Scope A<\/bdi>/);
      expect(page.body).not.toContain("sub3@scope.test");
      await setScope(null);
      expect(await total(staff)).toBe(5);
      await setScope([branch.a]);
    });

    it("answers another branch's ids in the path exactly as unknown ids, in status, body and time", async () => {
      const unknown = await staff.request("/api/v1/subscribers/987654");
      expect(unknown.status).toBe(404);
      for (const id of [...subscriber.b, subscriber.none]) {
        const answer = await staff.request(`/api/v1/subscribers/${id}`);
        expect({ status: answer.status, body: sameFor(answer.body) }).toEqual({ status: unknown.status, body: sameFor(unknown.body) });
        const patch = await staff.request(`/api/v1/subscribers/${id}`, json("PATCH", { last_name: "Taken", updated_at: new Date().toISOString() }));
        expect({ status: patch.status, body: sameFor(patch.body) }).toEqual({ status: unknown.status, body: sameFor(unknown.body) });
        for (const path of [`/subscribers/${id}`, `/subscribers/${id}/edit`]) expect((await staff.request(path)).status, path).toBe(404);
      }
      const otherBranch = await staff.request(`/api/v1/branches/${branch.b}`);
      const noBranch = await staff.request("/api/v1/branches/987654");
      expect({ status: otherBranch.status, body: sameFor(otherBranch.body) }).toEqual({ status: 404, body: sameFor(noBranch.body) });
      // Time: interleaved reads of an out-of-scope and an unknown id take the same one-row index read.
      const times = { other: [] as number[], unknown: [] as number[] };
      for (let i = 0; i < 25; i++) {
        for (const [key, id] of [["other", subscriber.b[0]], ["unknown", 987_000 + i]] as const) {
          const start = performance.now();
          await staff.request(`/api/v1/subscribers/${id}`);
          times[key].push(performance.now() - start);
        }
      }
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
      const [other, none] = [median(times.other), median(times.unknown)];
      expect(Math.abs(other - none), `medians ${other.toFixed(1)} ms and ${none.toFixed(1)} ms`).toBeLessThan(Math.max(5, 0.5 * Math.min(other, none)));
      expect((await staff.request(`/api/v1/subscribers/${subscriber.a[0]}`)).status).toBe(200);
    });

    it("refuses another branch in a body, and filters find nothing of it", async () => {
      const body = (branch_id: number | null) => ({ first_name: "New", last_name: "Scope", email: `new${branch_id}@scope.test`, mobile: "+447400555299", branch_id, subscription_status: "active", is_mandatory: false });
      for (const id of [branch.b, null]) {
        const answer = await staff.request("/api/v1/subscribers", json("POST", body(id)));
        expect(answer.status, answer.body).toBe(400);
        expect(parse(answer.body)).toMatchObject({ error: { fields: { branch_id: ["Choose one of your branches."] } } });
      }
      const own = parse((await staff.request(`/api/v1/subscribers/${subscriber.a[0]}`)).body);
      const move = await staff.request(`/api/v1/subscribers/${subscriber.a[0]}`, json("PATCH", { branch_id: branch.b, updated_at: own.updated_at }));
      expect(move.status, move.body).toBe(400);
      expect(parse(move.body)).toMatchObject({ error: { fields: { branch_id: ["Choose one of your branches."] } } });
      for (const query of [`?branch_name=Scope%20B`, `?id=${subscriber.b[0]}`, `?q=sub3`, "?sort=branch_name&page=1"]) {
        expect(await total(staff, query), query).toBe(query.startsWith("?sort") ? 2 : 0);
      }
      const branches = parse((await staff.request("/api/v1/branches")).body);
      expect((branches.data as { name: string }[]).map((x) => x.name)).toEqual(["Scope A"]);
      const form = await staff.request("/subscribers/new");
      expect(form.body).toContain("Scope A");
      expect(form.body).not.toContain("Scope B");
    });

    it("changes in-scope rows only when a bulk change's ids name other branches", async () => {
      const action = builtServerActions().find((x) => x.name === "bulkChangeAction")!;
      const answer = await staff.request(action.page, {
        method: "POST",
        headers: { "next-action": action.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: server.url },
        body: JSON.stringify([{ target: { ids: [subscriber.a[1], ...subscriber.b, subscriber.none] }, change: { subscription_status: "cancelled" } }]),
      });
      expect(answer.status, answer.body.slice(0, 300)).toBe(200);
      expect(answer.body).toContain("1 subscriber changed.");
      const statusOf = async (id: number) => parse((await admin.request(`/api/v1/subscribers/${id}`)).body).subscription_status;
      expect(await statusOf(subscriber.a[1]!)).toBe("cancelled");
      for (const id of [...subscriber.b, subscriber.none]) expect(await statusOf(id)).toBe("active");
      // The confirmation counts the scope's rows only: of a selection, and of every subscriber.
      const selection = [subscriber.a[0], ...subscriber.b, subscriber.none].map((id) => `select=${id}`).join("&");
      expect((await staff.request(`/subscribers/bulk?change=status:expired&${selection}`)).body).toMatch(/>1 subscriber will change/);
      const all = (await staff.request(`/subscribers/bulk?change=status:expired&scope=all`)).body;
      expect(all).toMatch(/>2 subscribers will change/);
      expect(all).toContain("All 2 subscribers of your branches: no filter is set.");
    });

    it("exports the scope's rows only, whatever the export's filters say", async () => {
      const waitDone = async () => {
        for (let i = 0; i < 120; i++) {
          const status = parse((await staff.request("/api/v1/subscribers/export")).body);
          if (status.downloadable_file_status === "completed") return status;
          await new Promise((r) => setTimeout(r, 250));
        }
        throw new Error("export not completed");
      };
      const other = await staff.request("/api/v1/subscribers/export", json("POST", { branch_name: "Scope B" }));
      expect(other.status, other.body).toBe(202);
      expect(parse(other.body)).toMatchObject({ total_rows: 0 });
      expect(await waitDone()).toMatchObject({ total_rows: 0 });
      const all = await staff.request("/api/v1/subscribers/export", { method: "POST" });
      expect(parse(all.body)).toMatchObject({ total_rows: 2 });
      const done = await waitDone();
      expect(done).toMatchObject({ total_rows: 2 });
      const file = await staff.request(done.downloadable_file as string);
      const lines = file.body.replace(/^\uFEFF/, "").trim().split(/\r?\n/).slice(1);
      expect(lines.map((l) => Number(l.split(",")[0])).sort()).toEqual([...subscriber.a].sort());
    });

    it("rejects an import file's rows of another branch, or of none, as branch_out_of_scope", async () => {
      await setScope([branch.a]);
      const form = new FormData();
      form.set("file", new Blob(["first_name,last_name,email,mobile,branch_name\nIn,Scope,in@imp.test,+447911200011,Scope A\nOut,Scope,out@imp.test,+447911200012,Scope B\nNo,Branch,no@imp.test,+447911200013,\n"]), "scoped.csv");
      const request = new Request("http://x/", { method: "POST", body: form });
      const upload = await staff.request("/api/v1/subscribers/imports", {
        method: "POST",
        headers: { "content-type": request.headers.get("content-type")!, origin: server.url },
        body: Buffer.from(await request.arrayBuffer()),
      });
      expect(upload.status, upload.body).toBe(202);
      const id = parse(upload.body).id as string;
      let status: Json = {};
      for (let i = 0; i < 120 && status.status !== "completed" && status.status !== "failed"; i++) {
        await new Promise((r) => setTimeout(r, 250));
        status = parse((await staff.request(`/api/v1/subscribers/imports/${id}`)).body);
      }
      const rejected = await staff.request(`/api/v1/subscribers/imports/${id}/rejected`);
      expect(status, rejected.body).toMatchObject({ status: "completed", imported_rows: 1, rejected_rows: 2 });
      expect(rejected.body.match(/branch_out_of_scope/g)).toHaveLength(2);
      expect(await total(staff, "?q=imp.test")).toBe(1);
    });

    it("limits the scoped user's API token the same way, and follows a scope changed after it was made", async () => {
      const made = await staff.request("/api/v1/tokens", json("POST", { name: "scoped script", scope: "export", expires_at: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) }));
      expect(made.status, made.body).toBe(201);
      const token = parse(made.body).token as string;
      const bearer = { authorization: `Bearer ${token}` };
      const scopedTotal = await total(staff);
      expect(await total(token)).toBe(scopedTotal);
      const other = await rawRequest(server.url, `/api/v1/subscribers/${subscriber.b[0]}`, { headers: bearer });
      const unknown = await rawRequest(server.url, "/api/v1/subscribers/987654", { headers: bearer });
      expect({ status: other.status, body: sameFor(other.body) }).toEqual({ status: 404, body: sameFor(unknown.body) });
      expect((await rawRequest(server.url, `/api/v1/branches/${branch.b}`, { headers: bearer })).status).toBe(404);
      await setScope([branch.b]);
      expect((await rawRequest(server.url, `/api/v1/subscribers/${subscriber.b[0]}`, { headers: bearer })).status).toBe(200);
      expect((await rawRequest(server.url, `/api/v1/subscribers/${subscriber.a[0]}`, { headers: bearer })).status).toBe(404);
      await setScope(null);
      expect(await total(token)).toBeGreaterThan(scopedTotal);
      await setScope([branch.a]);
    });

    it("makes a staff member with their branches on /users/new, as the table's dialog does", async () => {
      const page = await admin.request("/users/new");
      expect(page.status).toBe(200);
      expect(page.body).toContain("Which branches they see");
      const action = builtServerActions().find((x) => x.name === "createUserAction")!;
      expect(action.page).toBe("/users/new");
      const email = "made-with-branches@scope.test";
      const answer = await admin.request(action.page, {
        method: "POST",
        headers: { "next-action": action.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: server.url },
        body: JSON.stringify([{ name: "Made Scoped", email, role: "staff", branch_ids: [branch.b, branch.a] }]),
      });
      expect(answer.status, answer.body.slice(0, 300)).toBe(200);
      expect(answer.body).toContain(`User ${email} created.`);
      const users = parse((await admin.request(`/api/v1/users?email=${encodeURIComponent(email)}`)).body).data as { email: string; branch_ids: number[] | null }[];
      expect(users.find((u) => u.email === email)?.branch_ids).toEqual([branch.a, branch.b].sort((x, y) => x - y));
      const table = await admin.request(`/users?email=${encodeURIComponent(email)}`);
      expect(table.body).toMatch(/<bdi>Scope A, Scope B<\/bdi>/);
    });

    it("names no other branch in the history of a subscriber moved in from one", async () => {
      const id = subscriber.b[1]!;
      const current = parse((await admin.request(`/api/v1/subscribers/${id}`)).body);
      const moved = await admin.request(`/api/v1/subscribers/${id}`, json("PATCH", { branch_id: branch.a, updated_at: current.updated_at }));
      expect(moved.status, moved.body).toBe(200);
      const page = await staff.request(`/subscribers/${id}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain("another branch");
      expect(page.body).not.toContain("Scope B");
      expect((await admin.request(`/subscribers/${id}`)).body).toContain("Scope B");
    });

    it("withdraws the staff member's export file when their scope narrows, not when it widens", async () => {
      expect((await staff.request("/api/v1/subscribers/export", { method: "POST" })).status).toBe(202);
      let status: Json = {};
      for (let i = 0; i < 120 && status.downloadable_file_status !== "completed"; i++) {
        await new Promise((r) => setTimeout(r, 250));
        status = parse((await staff.request("/api/v1/subscribers/export")).body);
      }
      const file = status.downloadable_file as string;
      expect(file).toEqual(expect.any(String));
      await setScope([branch.a, branch.b]);
      expect((await staff.request(file)).status).toBe(200);
      await setScope([branch.a]);
      expect((await staff.request(file)).status).toBe(404);
      expect(parse((await staff.request("/api/v1/subscribers/export")).body)).toMatchObject({ downloadable_file: null });
    });
  });
}
