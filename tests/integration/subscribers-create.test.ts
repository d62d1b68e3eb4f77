import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkDuplicateAction, createSubscriberAction } from "@/app/(console)/subscribers/actions";
import { GET as getCountries } from "@/app/api/v1/countries/route";
import { POST } from "@/app/api/v1/subscribers/route";
import type { Database } from "@/lib/db/client";
import { syncCountries } from "@/tools/seed/demo";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { createSubscriber } from "@/lib/subscribers/mutations";
import { listSubscribers } from "@/lib/subscribers/queries";
import { subscriberInputSchema, type SubscriberInput } from "@/lib/subscribers/schema";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest, expectRefused } from "../helpers/http";
import { branchScope } from "@/lib/auth/scope";

const EVERY = branchScope({ role: "admin", branch_ids: null });

type Users = Awaited<ReturnType<typeof createUsers>>;

let counter = 0;
/** A valid creation body with a fresh email and mobile (UK mobiles +44 7400 1xxxxx). */
function body(change: Partial<SubscriberInput> = {}): SubscriberInput {
  counter += 1;
  return {
    first_name: "Grace",
    last_name: `Hopper ${counter}`,
    email: `grace.${counter}@example.com`,
    mobile: `+44 7400 ${String(100000 + counter)}`,
    subscription_status: "active",
    is_mandatory: false,
    ...change,
  };
}
const actor = { id: 0, email: "system@test.local", name: "Test", role: "staff" as const, branch_ids: null };
const create = (change: Partial<SubscriberInput> = {}) => createSubscriber(EVERY, subscriberInputSchema.parse(body(change)), actor);

for (const kind of testDbKinds()) {
  describe(`subscriber creation (${kind})`, () => {
    let database: Database;
    let users: Users;
    let gb: number;
    let fr: number;
    let branch: number;

    beforeAll(async () => {
      database = await testDatabase(kind);
      await syncCountries(database.prisma);
      users = await createUsers(database);
      const country = (code: string) => database.prisma.country.findUniqueOrThrow({ where: { code }, select: { id: true } });
      gb = (await country("GB")).id;
      fr = (await country("FR")).id;
      branch = (await database.prisma.branch.create({ data: { name: "Harbour" }, select: { id: true } })).id;
      await database.prisma.sheet.create({ data: { name: "Spring campaign" } });
    });
    beforeEach(() => actAs(users.staff));
    afterAll(async () => {
      actAs(null);
      await database?.close();
    });

    it("staff create a subscriber; it is first in the default list, mobile in E.164", async () => {
      const result = await createSubscriberAction(body({ mobile: "07400 222333", country_id: gb, branch_id: branch, travel_date: "2027-05-01", sheet_name: "Brand new sheet" }));
      expect(result).toMatchObject({ ok: true, data: { is_duplicate: false } });
      const list = await listSubscribers(EVERY, subscriberFiltersSchema.parse({}));
      expect(list.data[0]).toMatchObject({
        mobile: "+447400222333",
        branch_name: "Harbour",
        country_name: "United Kingdom",
        sheet_name: "Brand new sheet",
        is_duplicate: false,
      });
      expect(list.data[0]!.travel_date?.toISOString()).toBe("2027-05-01T00:00:00.000Z");
    });

    it("is a duplicate when an earlier subscriber has the same email, ignoring case and spaces", async () => {
      const first = await create({ email: "Alan.Turing@Example.com" });
      const again = await create({ email: "  alan.turing@EXAMPLE.COM " });
      expect([first.is_duplicate, again.is_duplicate]).toEqual([false, true]);
      expect(again.email).toBe("alan.turing@EXAMPLE.COM"); // stored trimmed, as typed
    });

    it("is a duplicate when an earlier subscriber has the same mobile, however it was typed", async () => {
      const first = await create({ mobile: "+44 7400 555111" });
      const national = await create({ mobile: "07400-555-111", country_id: gb });
      const otherCountry = await create({ mobile: "06 12 34 56 78", country_id: fr });
      expect([first.is_duplicate, national.is_duplicate, otherCountry.is_duplicate]).toEqual([false, true, false]);
      expect(national.mobile).toBe("+447400555111");
    });

    it("never takes is_duplicate from the client (action and API)", async () => {
      const input = { ...body(), is_duplicate: true } as SubscriberInput;
      const result = await createSubscriberAction(input);
      expect(result).toMatchObject({ ok: true, data: { is_duplicate: false } });
      const response = await POST(apiRequest("/api/v1/subscribers", { method: "POST", json: { ...body(), is_duplicate: true } }), {});
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ is_duplicate: false });
    });

    it("POST /api/v1/subscribers answers 201 with docs/API.md's record", async () => {
      const response = await POST(apiRequest("/api/v1/subscribers", {
        method: "POST",
        json: body({ email: "api@example.com", country_id: gb, mobile: "07400 999888", sheet_name: "spring CAMPAIGN", travel_date: "2027-03-04", is_mandatory: true }),
      }), {});
      expect(response.status).toBe(201);
      const record = await response.json();
      expect(record).toMatchObject({
        email: "api@example.com",
        mobile: "+447400999888",
        branch_name: null,
        country_name: "United Kingdom",
        travel_date: "2027-03-04",
        sheet: { name: "Spring campaign" }, // the existing sheet, whatever the case typed
        is_mandatory: true,
        is_duplicate: false,
      });
      expect(record.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(await database.prisma.sheet.count({ where: { name: { equals: "spring campaign", mode: "insensitive" } } })).toBe(1);
    });

    it.each([
      [{ branch_id: 999_999 }, "branch_id"],
      [{ country_id: 999_999 }, "country_id"],
      [{ mobile: "07400 123456" }, "mobile"], // national, and no country to read it with
      [{ mobile: "+44 20 7183 8750" }, "mobile"], // a landline
      [{ email: "nope" }, "email"],
      [{ subscription_status: "paused" as "active" }, "subscription_status"],
    ])("rejects %o with a field error, not a 500", async (change, field) => {
      const result = await createSubscriberAction(body(change));
      expect(result.ok).toBe(false);
      if (!result.ok) expect(Object.keys(result.fieldErrors ?? {})).toEqual([field]);
      const response = await POST(apiRequest("/api/v1/subscribers", { method: "POST", json: body(change) }), {});
      expect(response.status).toBe(400);
      const error = ((await response.json()) as { error: { fields: Record<string, string[]> } }).error;
      expect(Object.keys(error.fields)).toEqual([field]);
    });

    it("refuses anonymous callers", async () => {
      actAs(null);
      await expectRefused(createSubscriberAction(body()), 401);
      await expectRefused(checkDuplicateAction({ email: "x@example.com" }), 401);
      expect((await POST(apiRequest("/api/v1/subscribers", { method: "POST", json: body() }), {})).status).toBe(401);
      expect((await getCountries(apiRequest("/api/v1/countries"), {})).status).toBe(401);
    });

    it("the duplicate check names the earliest matching subscriber", async () => {
      const a = await create({ email: "warn@example.com", mobile: "+44 7400 777001" });
      await create({ email: "WARN@example.com" });
      expect(await checkDuplicateAction({ email: " Warn@Example.com", mobile: "07400 777001", country_id: gb })).toEqual({
        ok: true,
        data: { email: a.id, mobile: a.id },
      });
      expect(await checkDuplicateAction({ email: "nobody@example.com", mobile: "not a number" })).toEqual({
        ok: true,
        data: { email: null, mobile: null },
      });
    });

    it("flags exactly the later ones when the same person is created concurrently", async () => {
      const email = "race@example.com";
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => create({ email: i % 2 ? email.toUpperCase() : email, mobile: `+44 7400 88${String(8000 + i)}` })),
      );
      const sorted = [...results].sort((a, b) => a.id - b.id);
      expect(sorted.map((r) => r.is_duplicate)).toEqual([false, true, true, true, true, true, true, true]);

      const byMobile = await Promise.all(Array.from({ length: 6 }, (_, i) => create({ mobile: "+44 7400 654321", email: `m${i}@race.example` })));
      expect(byMobile.filter((r) => !r.is_duplicate)).toHaveLength(1);
      expect(byMobile.find((r) => !r.is_duplicate)!.id).toBe(Math.min(...byMobile.map((r) => r.id)));
    });

    it("GET /api/v1/countries lists every country by name", async () => {
      const response = await getCountries(apiRequest("/api/v1/countries"), {});
      expect(response.status).toBe(200);
      const { data } = (await response.json()) as { data: { id: number; name: string }[] };
      expect(data.length).toBeGreaterThan(240);
      expect(Object.keys(data[0]!)).toEqual(["id", "name"]);
      const names = data.map((c) => c.name);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
      expect(names.indexOf("Åland Islands")).toBeLessThan(names.indexOf("Albania"));
    });
  });
}
