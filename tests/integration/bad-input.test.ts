import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBranchAction, deleteBranchAction, updateBranchAction } from "@/app/(console)/branches/actions";
import { checkDuplicateAction, createSubscriberAction } from "@/app/(console)/subscribers/actions";
import * as branchesApi from "@/app/api/v1/branches/route";
import * as branchApi from "@/app/api/v1/branches/[id]/route";
import * as subscribersApi from "@/app/api/v1/subscribers/route";
import type { Database } from "@/lib/db/client";
import { actAs, createUsers, testDatabase } from "../helpers/db";
import { apiRequest, routeContext } from "../helpers/http";

// Arbitrary query strings, JSON bodies and action inputs: never a 500, never a stack trace or
// SQL in an answer, never a write outside the allowed fields. (PGlite: the property is about our
// code, not the database.)

const LEAKS = /(\n\s+at\s|prisma|SELECT |INSERT |syntax error|node_modules|TypeError|ReferenceError)/i;
const jsonValue = fc.jsonValue({ maxDepth: 3 });
const text = fc.oneof(fc.string(), fc.constantFrom("", "%", "_", "\\", "'", '"', "\u0000", "😀", "a".repeat(300), "1e999", "-0"));
const queryString = fc.array(fc.tuple(fc.oneof(text, fc.constantFrom("page", "sort", "id", "name", "is_duplicate", "subscription_status", "created_from")), text), { maxLength: 8 })
  .map((pairs) => new URLSearchParams(pairs).toString());

async function expectSafe(response: Response, allowed: number[]) {
  expect(allowed).toContain(response.status);
  const body = await response.text();
  expect(body).not.toMatch(LEAKS);
}

describe("bad input", () => {
  let database: Database;

  beforeAll(async () => {
    database = await testDatabase("pglite");
    const users = await createUsers(database);
    actAs(users.admin);
  });
  afterAll(async () => database?.close());

  it("list APIs answer 200 or a clear 400 for any query string", async () => {
    await fc.assert(
      fc.asyncProperty(queryString, async (qs) => {
        await expectSafe(await branchesApi.GET(apiRequest(`/api/v1/branches?${qs}`), undefined), [200, 400]);
        await expectSafe(await subscribersApi.GET(apiRequest(`/api/v1/subscribers?${qs}`), undefined), [200, 400]);
      }),
      { numRuns: 60 },
    );
  });

  it("JSON bodies: 201, 400, 409 or 415, and only the name is ever written", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(jsonValue, fc.record({ name: text, id: fc.integer(), created_at: fc.string() }, { requiredKeys: [] })), async (body) => {
        const response = await branchesApi.POST(apiRequest("/api/v1/branches", { method: "POST", json: body }), undefined);
        await expectSafe(response.clone(), [201, 400, 409]);
        if (response.status === 201) {
          const created = await response.json();
          const sent = body as { name: string; id?: number; created_at?: string };
          expect(created.name).toBe(sent.name.trim());
          if (sent.id !== undefined) expect(created.id === sent.id && created.id > 1000).toBe(false);
          expect(Date.now() - Date.parse(created.created_at)).toBeLessThan(60_000);
        }
      }),
      { numRuns: 80 },
    );
    await expectSafe(await subscribersApi.POST(apiRequest("/api/v1/subscribers", { method: "POST", json: { first_name: "A", is_duplicate: "yes" } }), undefined), [400]);
  });

  it("refuses bodies that are not JSON, broken, or too large", async () => {
    const post = (body: string, type = "application/json") =>
      branchesApi.POST(apiRequest("/api/v1/branches", { method: "POST", body, headers: { "content-type": type } }), undefined);
    await expectSafe(await post("name=x", "text/plain"), [415]);
    await expectSafe(await post("{not json"), [400]);
    await expectSafe(await post(JSON.stringify({ name: "x".repeat(200_000) })), [413]);
    await expectSafe(
      await branchApi.PATCH(apiRequest("/api/v1/branches/1", { method: "PATCH", body: "[]", headers: { "content-type": "application/json" } }), routeContext({ id: "1" })),
      [400, 404],
    );
  });

  it("route parameters of any shape answer 404, never 500", async () => {
    await fc.assert(
      fc.asyncProperty(text, async (id) => {
        await expectSafe(await branchApi.GET(apiRequest(`/api/v1/branches/x`), routeContext({ id })), [200, 404]);
        await expectSafe(await branchApi.DELETE(apiRequest(`/api/v1/branches/x`, { method: "DELETE" }), routeContext({ id })), [204, 404]);
      }),
      { numRuns: 40 },
    );
  });

  it("server actions return typed failures for any input", async () => {
    const anything = fc.oneof(jsonValue, fc.record({ id: fc.oneof(fc.integer(), text), name: fc.oneof(text, fc.integer()) }, { requiredKeys: [] }));
    await fc.assert(
      fc.asyncProperty(anything, async (input) => {
        for (const run of [createBranchAction, updateBranchAction, deleteBranchAction, createSubscriberAction, checkDuplicateAction] as ((i: unknown) => Promise<{ ok: boolean; formError?: string }>)[]) {
          const result = await run(input);
          expect(typeof result.ok).toBe("boolean");
          if (!result.ok) expect(result.formError ?? "").not.toMatch(LEAKS);
        }
      }),
      { numRuns: 40 },
    );
    // Whatever got through was valid: every stored name is trimmed and 1–100 characters.
    for (const { name } of await database.prisma.branch.findMany({ select: { name: true } })) {
      expect(name).toBe(name.trim());
      expect(name.length >= 1 && name.length <= 100).toBe(true);
    }
  });
});
