import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as mergePOST } from "@/app/api/v1/subscribers/merge/route";
import { POST as undoPOST } from "@/app/api/v1/subscribers/merges/[merge_id]/undo/route";
import type { SessionUser } from "@/lib/auth/permissions";
import { branchScope } from "@/lib/auth/scope";
import type { Database } from "@/lib/db/client";
import { editableFields, updateSubscriber } from "@/lib/subscribers/edit";
import { createSubscriber } from "@/lib/subscribers/mutations";
import { findSubscriber, subscriberHistory } from "@/lib/subscribers/record";
import { subscriberInputSchema, type SubscriberInput } from "@/lib/subscribers/schema";
import { syncCountries } from "@/tools/seed/demo";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest } from "../helpers/http";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// Merging duplicates through the API's handlers: the survivor takes the chosen values, the others
// go to the trash with merged_into, flags are decided again, the survivor's history names the
// merge; a subscriber changed since it was read is a 409 naming who changed what; the undo puts
// everything back, once, and never over a later change; staff cannot merge or undo.

type Answer = { status: number; body: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const kind of testDbKinds()) {
  describe(`merging duplicates on ${kind}`, () => {
    let database: Database;
    let users: { admin: SessionUser; staff: SessionUser };
    let n = 0;
    let branch = 0;
    const make = (change: Partial<SubscriberInput>) => {
      n += 1;
      return createSubscriber(
        EVERY,
        subscriberInputSchema.parse({ first_name: "Mia", last_name: `Merge ${n}`, email: `mia.${n}@merge.test`, mobile: `+4474006${String(n).padStart(5, "0")}`, subscription_status: "pending", is_mandatory: false, ...change }),
        users.admin,
      );
    };
    const record = async (id: number) => (await findSubscriber(EVERY, id))!;
    const versions = async (...ids: number[]) => Object.fromEntries(await Promise.all(ids.map(async (id) => [String(id), (await record(id)).updated_at.toISOString()])));
    const merge = async (json: unknown, as: SessionUser = users.admin): Promise<Answer> => {
      actAs(as);
      const response = await mergePOST(apiRequest("/api/v1/subscribers/merge", { method: "POST", json }), {});
      return { status: response.status, body: await response.json() };
    };
    const undo = async (id: string, as: SessionUser = users.admin): Promise<Answer> => {
      actAs(as);
      const response = await undoPOST(apiRequest(`/api/v1/subscribers/merges/${id}/undo`, { method: "POST" }), { params: Promise.resolve({ merge_id: id }) });
      return { status: response.status, body: await response.json() };
    };
    const trashed = (id: number) => database.prisma.$queryRawUnsafe<{ id: number; merged_into: number | null }[]>(`SELECT id, merged_into FROM subscriber_trash WHERE id = ${id}`);

    beforeAll(async () => {
      database = await testDatabase(kind);
      await syncCountries(database.prisma);
      users = await createUsers(database);
      branch = (await database.prisma.branch.create({ data: { name: "Merge branch" } })).id;
    });
    beforeEach(() => actAs(users.admin));
    afterAll(async () => {
      actAs(null);
      await database?.close();
    });

    it("keeps the chosen values, trashes the merged with merged_into, decides flags again and tells the survivor's history", async () => {
      const a = await make({ email: "tess@merge.test", travel_date: null });
      const b = await make({ email: "TESS@merge.test", first_name: "Tessa", travel_date: "2027-05-01", branch_id: branch, subscription_status: "active" });
      const c = await make({ mobile: "+447400900001" });
      const later = await make({ email: "tess@MERGE.test", mobile: "+447400900001" });
      expect((await record(later.id)).is_duplicate).toBe(true);
      const answer = await merge({
        survivor_id: a.id,
        merged_ids: [b.id, c.id],
        values: { first_name: b.id, travel_date: b.id, branch_name: b.id, mobile: c.id },
        updated_at: await versions(a.id, b.id, c.id),
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.survivor).toMatchObject({ id: a.id, first_name: "Tessa", email: "tess@merge.test", mobile: "+447400900001", travel_date: "2027-05-01", branch_name: "Merge branch", subscription_status: "pending", is_duplicate: false });
      expect(answer.body.merge_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(await trashed(b.id)).toEqual([{ id: b.id, merged_into: a.id }]);
      expect(await trashed(c.id)).toEqual([{ id: c.id, merged_into: a.id }]);
      expect(await findSubscriber(EVERY, b.id)).toBeNull();
      // The later one still matches the survivor (email and now mobile).
      expect((await record(later.id)).is_duplicate).toBe(true);
      const [event] = await subscriberHistory(EVERY, a.id, 1);
      expect(event).toMatchObject({ action: "subscriber.merge", actor_email: users.admin.email, after: { merged: [b.id, c.id], values: { first_name: b.id, mobile: c.id } } });

      // Undone: everything as before, the flags decided again.
      const undone = await undo(answer.body.merge_id);
      expect(undone.status, JSON.stringify(undone.body)).toBe(200);
      expect(undone.body).toMatchObject({ id: a.id, first_name: "Mia", mobile: a.mobile, travel_date: null, branch_name: null });
      expect((await record(b.id)).first_name).toBe("Tessa");
      expect((await record(b.id)).is_duplicate).toBe(true);
      expect((await record(c.id)).is_duplicate).toBe(false);
      expect(await trashed(b.id)).toEqual([]);
      expect((await undo(answer.body.merge_id)).status).toBe(409); // already undone
    });

    it("refuses with a 409 naming who changed what since it was read, and changes nothing", async () => {
      const a = await make({ email: "uma@merge.test" });
      const b = await make({ email: "uma@merge.test" });
      const read = await versions(a.id, b.id);
      const current = await record(b.id);
      await updateSubscriber(EVERY, b.id, subscriberInputSchema.parse({ ...editableFields(current), last_name: "Changed" }), current.updated_at, users.staff);
      const answer = await merge({ survivor_id: a.id, merged_ids: [b.id], values: {}, updated_at: read });
      expect(answer.status).toBe(409);
      // Who, when (a date in words, the console's zone) and which field (its label).
      expect(answer.body.error.message).toMatch(new RegExp(`#${b.id} was changed by ${users.staff.email.replace(/[.]/g, "\\.")} at \\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2} \\(Last name\\)`));
      expect(answer.body.error.changed).toEqual([expect.objectContaining({ id: b.id, by: users.staff.email, fields: ["last_name"] })]);
      expect(await findSubscriber(EVERY, b.id)).not.toBeNull();
    });

    it("refuses to undo over a change of the survivor made after the merge", async () => {
      const a = await make({ email: "vic@merge.test" });
      const b = await make({ email: "vic@merge.test" });
      const answer = await merge({ survivor_id: a.id, merged_ids: [b.id], values: {}, updated_at: await versions(a.id, b.id) });
      expect(answer.status).toBe(200);
      const current = await record(a.id);
      await updateSubscriber(EVERY, a.id, subscriberInputSchema.parse({ ...editableFields(current), first_name: "Victor" }), current.updated_at, users.staff);
      const refused = await undo(answer.body.merge_id);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toContain("(First name)");
      expect(await trashed(b.id)).toHaveLength(1);
    });

    it("refuses bad bodies with a 400 naming them, unknown subscribers with a 404, and staff with a 403", async () => {
      const a = await make({ email: "wyn@merge.test" });
      const b = await make({ email: "wyn@merge.test" });
      const updated_at = await versions(a.id, b.id);
      for (const [json, field] of [
        [{ survivor_id: a.id, merged_ids: [], updated_at }, "merged_ids"],
        [{ survivor_id: a.id, merged_ids: [a.id], updated_at }, "merged_ids"],
        [{ survivor_id: a.id, merged_ids: [b.id, b.id], updated_at }, "merged_ids"],
        [{ survivor_id: a.id, merged_ids: [b.id], values: { is_duplicate: b.id }, updated_at }, "values.is_duplicate"],
        [{ survivor_id: a.id, merged_ids: [b.id], values: { email: 999 }, updated_at }, "values.email"],
        [{ survivor_id: a.id, merged_ids: [b.id], updated_at: { [a.id]: updated_at[a.id] } }, `updated_at.${b.id}`],
        [{ survivor_id: a.id, merged_ids: [b.id], updated_at, extra: 1 }, ""],
      ] as const) {
        const answer = await merge(json);
        expect(answer.status, JSON.stringify(json)).toBe(400);
        if (field) expect(Object.keys(answer.body.error.fields ?? {}), JSON.stringify(json)).toContain(field);
      }
      const unknown = await merge({ survivor_id: a.id, merged_ids: [2_000_000_000], updated_at: { [a.id]: updated_at[a.id], "2000000000": updated_at[a.id] } });
      expect(unknown.status, JSON.stringify(unknown.body)).toBe(404);
      expect((await merge({ survivor_id: a.id, merged_ids: [b.id], updated_at }, users.staff)).status).toBe(403);
      expect((await undo("AAAAAAAAAAAAAAAAAAAAAA", users.staff)).status).toBe(403);
      expect((await undo("AAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
    });
  });
}
