import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deleteSubscriberAction, updateSubscriberAction } from "@/app/(console)/subscribers/actions";
import { DELETE, GET, PATCH } from "@/app/api/v1/subscribers/[id]/route";
import type { SessionUser } from "@/lib/auth/permissions";
import type { Database } from "@/lib/db/client";
import { editableFields, updateSubscriber } from "@/lib/subscribers/edit";
import { createSubscriber } from "@/lib/subscribers/mutations";
import { findSubscriber, serializeRecord, subscriberHistory } from "@/lib/subscribers/record";
import { subscriberInputSchema, type SubscriberInput } from "@/lib/subscribers/schema";
import { syncCountries } from "@/tools/seed/demo";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest, expectRefused } from "../helpers/http";
import { branchScope } from "@/lib/auth/scope";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// Correcting a subscriber: the creation rules, the duplicate flag decided again (for
// it and for the later subscribers that matched it), no silent overwrite (a stale version is a
// 409 with the record as it is now), admin-only deletion, every change audited with before/after,
// and the trigger-kept counts exact throughout.

let n = 0;
function body(change: Partial<SubscriberInput> = {}): SubscriberInput {
  n += 1;
  return { first_name: "Edie", last_name: `Edit ${n}`, email: `edie.${n}@edit.test`, mobile: `+44 7400 ${300000 + n}`, subscription_status: "active", is_mandatory: false, ...change };
}
const ctx = (id: number | string) => ({ params: Promise.resolve({ id: String(id) }) });

for (const kind of testDbKinds()) {
  describe(`subscriber edits on ${kind}`, () => {
    let database: Database;
    let users: { admin: SessionUser; staff: SessionUser };
    const make = (change: Partial<SubscriberInput> = {}) => createSubscriber(EVERY, subscriberInputSchema.parse(body(change)), users.staff);
    const record = async (id: number) => (await findSubscriber(EVERY, id))!;
    /** The trigger-kept totals agree with a plain count. */
    const countsExact = async () => {
      const [kept] = await database.prisma.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT coalesce(sum(total), 0) AS n FROM subscriber_status_counts`);
      const [days] = await database.prisma.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT coalesce(sum(total), 0) AS n FROM subscriber_day_counts`);
      const actual = await database.prisma.subscriber.count();
      expect(Number(kept!.n)).toBe(actual);
      expect(Number(days!.n)).toBe(actual);
      for (const status of ["pending", "active", "expired", "cancelled"] as const) {
        const [row] = await database.prisma.$queryRawUnsafe<{ n: bigint | number }[]>(
          `SELECT coalesce(sum(total), 0) AS n FROM subscriber_status_counts WHERE subscription_status = '${status}'`);
        expect(Number(row!.n), status).toBe(await database.prisma.subscriber.count({ where: { subscription_status: status } }));
      }
    };

    beforeAll(async () => {
      database = await testDatabase(kind);
      await syncCountries(database.prisma);
      users = await createUsers(database);
    });
    beforeEach(() => actAs(users.staff));
    afterAll(async () => {
      actAs(null);
      await database?.close();
    });

    it("saves an edit with the creation rules, moves updated_at and audits before and after", async () => {
      const s = await make();
      const before = await record(s.id);
      const result = await updateSubscriberAction({ ...editableFields(before), id: s.id, version: before.updated_at.toISOString(), last_name: "Edited", subscription_status: "expired" });
      expect(result).toMatchObject({ ok: true, data: { last_name: "Edited", subscription_status: "expired" } });
      const after = await record(s.id);
      expect(after.updated_at.getTime()).toBeGreaterThanOrEqual(before.updated_at.getTime());
      const bad = await updateSubscriberAction({ ...editableFields(after), id: s.id, version: after.updated_at.toISOString(), email: "not an email" });
      expect(bad).toMatchObject({ ok: false, fieldErrors: { email: expect.any(Array) } });
      const [event] = await subscriberHistory(EVERY, s.id, 1);
      expect(event).toMatchObject({ action: "subscriber.update", before: { last_name: before.last_name }, after: { last_name: "Edited" } });
      await countsExact();
    });

    it("refuses a stale version with 409 and the record as it is now: two editors cannot overwrite each other", async () => {
      const s = await make();
      const read = await record(s.id);
      const version = read.updated_at.toISOString();
      // Both read the same version; the first save wins…
      const first = await updateSubscriberAction({ ...editableFields(read), id: s.id, version, first_name: "First" });
      expect(first.ok).toBe(true);
      // …and the second is told, with their version, instead of silently overwriting it.
      const second = await updateSubscriberAction({ ...editableFields(read), id: s.id, version, last_name: "Second" });
      expect(second).toMatchObject({ ok: false, details: { current: { first_name: "First", last_name: read.last_name }, editable: { first_name: "First" } } });
      expect((await record(s.id)).last_name).toBe(read.last_name);
      // The API too: 409 with error.current.
      const now = await record(s.id);
      const stale = await PATCH(apiRequest(`/api/v1/subscribers/${s.id}`, { method: "PATCH", json: { last_name: "Api", updated_at: version } }), ctx(s.id));
      expect(stale.status).toBe(409);
      expect((await stale.json()).error).toMatchObject({ code: "stale", current: { id: s.id, first_name: "First", updated_at: now.updated_at.toISOString() } });
      const fresh = await PATCH(apiRequest(`/api/v1/subscribers/${s.id}`, { method: "PATCH", json: { last_name: "Api", updated_at: now.updated_at.toISOString() } }), ctx(s.id));
      expect(fresh.status).toBe(200);
      expect(await fresh.json()).toMatchObject({ first_name: "First", last_name: "Api" });
      // Concurrent saves of one version: exactly one wins.
      const latest = await record(s.id);
      const saves = await Promise.allSettled(
        ["A", "B", "C"].map((x) => updateSubscriber(EVERY, s.id, subscriberInputSchema.parse({ ...editableFields(latest), last_name: x }), latest.updated_at, users.staff)),
      );
      expect(saves.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    });

    it("decides the duplicate flag again, for the edited subscriber and the later ones that matched it", async () => {
      const a = await make({ email: "shared@edit.test" });
      const b = await make({ email: "SHARED@edit.test" });
      const c = await make();
      expect([(await record(a.id)).is_duplicate, (await record(b.id)).is_duplicate, (await record(c.id)).is_duplicate]).toEqual([false, true, false]);
      // c takes a's mobile: c becomes a duplicate (the form's flag, if any, is never read).
      const rc = await record(c.id);
      await updateSubscriber(EVERY, c.id, subscriberInputSchema.parse({ ...editableFields(rc), mobile: (await record(a.id)).mobile }), rc.updated_at, users.staff);
      expect((await record(c.id)).is_duplicate).toBe(true);
      // a changes its email: b no longer matches anything earlier.
      const ra = await record(a.id);
      await updateSubscriber(EVERY, a.id, subscriberInputSchema.parse({ ...editableFields(ra), email: "moved@edit.test" }), ra.updated_at, users.staff);
      expect((await record(b.id)).is_duplicate).toBe(false);
      expect((await record(a.id)).is_duplicate).toBe(false); // a is the earliest: never a duplicate
      await countsExact();
    });

    it("refuses unknown and server-decided PATCH members by name, and bad versions", async () => {
      const s = await make();
      const r = await record(s.id);
      const send = (json: unknown) => PATCH(apiRequest(`/api/v1/subscribers/${s.id}`, { method: "PATCH", json }), ctx(s.id));
      const typo = await send({ emial: "x@y.z", updated_at: r.updated_at.toISOString() });
      expect(typo.status).toBe(400);
      expect((await typo.json()).error.fields).toHaveProperty("emial");
      const named = await send({ branch_name: "Harbour", updated_at: r.updated_at.toISOString() });
      expect((await named.json()).error.fields.branch_name[0]).toMatch(/branch_id/);
      // Names Object.prototype has are members like any other: a 400 naming them, never a 500.
      for (const name of ["constructor", "toString", "__proto__"]) {
        const inherited = await PATCH(
          apiRequest(`/api/v1/subscribers/${s.id}`, { method: "PATCH", body: `{${JSON.stringify(name)}: {"last_name": "X"}, "updated_at": "${r.updated_at.toISOString()}"}`, headers: { "content-type": "application/json" } }),
          ctx(s.id),
        );
        expect(inherited.status, name).toBe(400);
        expect(Object.keys((await inherited.json()).error.fields), name).toEqual([name]);
      }
      expect((await send({ last_name: "X" })).status).toBe(400);
      expect((await send({ last_name: "X", updated_at: "yesterday" })).status).toBe(400);
      // A time without its zone would be read in the server's: refused, saying what to send.
      const local = await send({ last_name: "X", updated_at: r.updated_at.toISOString().replace("Z", "") });
      expect(local.status).toBe(400);
      expect((await local.json()).error.fields.updated_at[0]).toMatch(/with Z or an offset/);
      const action = await updateSubscriberAction({ ...editableFields(r), id: s.id, version: r.updated_at.toISOString().replace("Z", "") });
      expect(action).toMatchObject({ ok: false, fieldErrors: { version: [expect.stringMatching(/with Z or an offset/)] } });
      expect((await record(s.id)).last_name).toBe(r.last_name);
      // The record answer's own members may come back: ignored (is_duplicate is the server's).
      const roundTrip = await send({ ...serializeRecord(r), is_duplicate: true, last_name: "Round" , branch_name: undefined, country_name: undefined, sheet: undefined });
      expect(roundTrip.status, await roundTrip.clone().text()).toBe(200);
      expect(await roundTrip.json()).toMatchObject({ last_name: "Round", is_duplicate: false });
      expect((await GET(apiRequest("/api/v1/subscribers/0x1"), ctx("0x1"))).status).toBe(404);
      expect((await GET(apiRequest(`/api/v1/subscribers/${s.id}`), ctx(s.id))).status).toBe(200);
    });

    it("lets only administrators delete, audited; the later duplicates are decided again and the counts stay exact", async () => {
      const a = await make({ mobile: "+44 7400 999001" });
      const b = await make({ mobile: "+44 7400 999001" });
      expect((await record(b.id)).is_duplicate).toBe(true);
      await expectRefused(deleteSubscriberAction({ id: a.id }), 403);
      expect((await DELETE(apiRequest(`/api/v1/subscribers/${a.id}`, { method: "DELETE" }), ctx(a.id))).status).toBe(403);
      actAs(users.admin);
      expect(await deleteSubscriberAction({ id: a.id })).toMatchObject({ ok: true });
      expect(await findSubscriber(EVERY, a.id)).toBeNull();
      expect((await record(b.id)).is_duplicate).toBe(false);
      const event = await database.prisma.auditEvent.findFirst({ where: { action: "subscriber.delete", entity_id: String(a.id) } });
      expect(event).toMatchObject({ actor_id: users.admin.id, before: expect.objectContaining({ id: a.id }) });
      expect((await DELETE(apiRequest(`/api/v1/subscribers/${a.id}`, { method: "DELETE" }), ctx(a.id))).status).toBe(404);
      await countsExact();
    });
  });
}
