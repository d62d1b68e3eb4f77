import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { branchScope } from "@/lib/auth/scope";
import { createBranch, deleteBranch, updateBranch } from "@/lib/branches/mutations";
import { branchSchema } from "@/lib/branches/schema";
import { connection } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { startJobWorker } from "@/lib/jobs/worker";
import { bulkChangeRecordSchema } from "@/lib/subscribers/bulk-schema";
import { bulkStatus, requestBulkChange } from "@/lib/subscribers/bulk";
import { updateSubscriber } from "@/lib/subscribers/edit";
import { createSubscriber } from "@/lib/subscribers/mutations";
import { findSubscriber } from "@/lib/subscribers/record";
import { subscriberInputSchema, subscriberRecordSchema } from "@/lib/subscribers/schema";
import { problem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { answerText } from "@/lib/webhooks/answer";
import { attemptDelivery, claimDeliveries, LEASE_SECONDS, MAX_ATTEMPTS, stopWebhookDelivery } from "@/lib/webhooks/deliver";
import { purgeWebhookEvents, recordEvent, resendDelivery } from "@/lib/webhooks/outbox";
import { erasePerson } from "@/lib/people/erase";
import { actAs, testDbKinds } from "../helpers/db";
import { closeExportSuite, openExportSuite, type ExportSuite } from "../helpers/export-test";
import { insertEndpoint, startReceiver, type Receiver } from "../helpers/webhooks";

// The outbox: an event is recorded in the transaction of its change (none when it rolls back, none
// when no endpoint receives it), one per bulk change whatever its size, and delivered by leases
// that a dead worker gives back.

const EVERY = branchScope({ role: "admin", branch_ids: null });
const ROWS = 40;

for (const kind of testDbKinds()) {
  describe(`webhook outbox on ${kind}`, () => {
    let s: ExportSuite;
    let receiver: Receiver;
    let secret = "";
    const q = async <T,>(text: string) => (await connection()).query<T>(text);
    const events = (type?: string) => q<{ id: string; type: string; data: Record<string, unknown> }>(
      `SELECT id, type, data FROM webhook_events ${type ? `WHERE type = '${type}'` : ""} ORDER BY created_at, id`);
    const input = (n: number) =>
      subscriberInputSchema.parse({ first_name: "Web", last_name: `Hook${n}`, email: `web.hook${n}@outbox.test`, mobile: `+44 7400 60${String(n).padStart(4, "0")}`, subscription_status: "pending", is_mandatory: false });

    beforeAll(async () => {
      s = await openExportSuite(kind, ROWS);
      process.env.BULK_INLINE_MAX = "10";
      process.env.BULK_BATCH_SIZE = "7";
      receiver = await startReceiver(() => secret);
    });
    afterAll(async () => {
      delete process.env.BULK_INLINE_MAX;
      delete process.env.BULK_BATCH_SIZE;
      await receiver?.close();
      await closeExportSuite(s);
    });
    beforeEach(() => actAs(s.admin));

    it("records nothing while no endpoint is subscribed", async () => {
      await createSubscriber(EVERY, input(1), s.admin);
      await createBranch("Quiet branch", { ...s.admin, scope: EVERY });
      expect(await events()).toEqual([]);
    });

    it("records a committed change's event with the API's representation, and none for a rolled-back one", async () => {
      const endpoint = await insertEndpoint(q, receiver.url, ["subscriber.created", "subscriber.updated", "branch.created", "branch.updated", "branch.deleted"]);
      secret = endpoint.secret;
      const created = await createSubscriber(EVERY, input(2), s.admin);
      const [event] = await events("subscriber.created");
      expect(event!.id).toMatch(/^msg_[A-Za-z0-9_-]{20,}$/);
      expect(subscriberRecordSchema.parse(event!.data)).toMatchObject({ id: created.id, email: "web.hook2@outbox.test" });
      const deliveries = await q<{ endpoint_id: number; status: string }>(`SELECT endpoint_id, status::text FROM webhook_deliveries WHERE event_id = '${event!.id}'`);
      expect(deliveries).toEqual([{ endpoint_id: endpoint.id, status: "pending" }]);

      // The same write, rolled back after its audit: no event, no delivery.
      await expect(
        transaction(async (tx) => {
          const branch = await tx.branch.create({ data: { name: "Rolled back" } });
          await tx.audit({ action: "branch.create", actor: s.admin, entity: "branch", entityId: branch.id, after: { id: branch.id, name: branch.name } });
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await events("branch.created")).toEqual([]);

      const caller = { ...s.admin, scope: EVERY };
      const branch = await createBranch("Webhook branch", caller);
      await updateBranch(branch.id, "Webhook branch renamed", caller);
      await deleteBranch(branch.id, caller);
      for (const type of ["branch.created", "branch.updated", "branch.deleted"]) {
        const list = await events(type);
        expect(list, type).toHaveLength(1);
        expect(branchSchema.parse(list[0]!.data), type).toMatchObject({ id: branch.id });
      }

      const before = (await findSubscriber(EVERY, created.id))!;
      await updateSubscriber(EVERY, created.id, { ...input(2), last_name: "Changed", subscription_status: "active" }, before.updated_at, s.admin);
      const [updated] = await events("subscriber.updated");
      expect(subscriberRecordSchema.parse(updated!.data)).toMatchObject({ last_name: "Changed" });
      expect((updated!.data.changed as string[]).sort()).toEqual(["last_name", "subscription_status"]);
    });

    it("records one event per bulk change, at once or as a job, whatever the rows", async () => {
      await insertEndpoint(q, receiver.url, ["bulk_change.completed"]);
      const atOnce = await requestBulkChange(EVERY, s.admin, { ids: [1, 2, 3] }, { is_mandatory: true });
      const job = await requestBulkChange(EVERY, s.admin, { filters: {} }, { subscription_status: "expired" });
      expect(job).toMatchObject({ kind: "queued" });
      await startJobWorker();
      const end = Date.now() + 45_000;
      while ((await bulkStatus(s.admin, job.id)).status !== "completed" && Date.now() < end) await new Promise((r) => setTimeout(r, 300));
      // The tests below make the attempts themselves, step by step.
      await stopWebhookDelivery();
      const list = await events("bulk_change.completed");
      expect(list.map((e) => e.data.id).sort()).toEqual([atOnce.id, job.id].sort());
      const jobEvent = bulkChangeRecordSchema.parse(list.find((e) => e.data.id === job.id)!.data);
      expect(jobEvent).toMatchObject({ status: "completed", processed_rows: ROWS + 2 });
    });

    it("sends a ping to the endpoint named, even a disabled one", async () => {
      const off = await insertEndpoint(q, receiver.url, ["ping"], { enabled: false });
      await transaction((tx) => recordEvent(tx, "ping", { ok: true }, { endpointIds: [off.id] }));
      const [ping] = await events("ping");
      expect(await q(`SELECT endpoint_id FROM webhook_deliveries WHERE event_id = '${ping!.id}'`)).toEqual([{ endpoint_id: off.id }]);
    });

    it("delivers signed, retries a failure later, and gives a dead worker's lease back (same webhook-id)", async () => {
      await q(`UPDATE webhook_deliveries SET status = 'delivered', next_attempt_at = NULL`);
      await createSubscriber(EVERY, input(3), s.admin);
      const [{ id: eventId }] = (await q<{ id: string }>(`SELECT id FROM webhook_events WHERE type = 'subscriber.created' AND data->>'email' = 'web.hook3@outbox.test'`)) as [{ id: string }];
      const row = async () => (await q<{ id: string; status: string; attempts: number; response_status: number | null; due: boolean }>(
        `SELECT id::text, status::text, attempts, response_status, next_attempt_at <= now() AS due FROM webhook_deliveries WHERE event_id = '${eventId}'`))[0]!;

      receiver.answer = 500;
      const [first] = await claimDeliveries(10);
      expect(await attemptDelivery(first!, { allowPrivate: true, allowHttp: true })).toMatchObject({ delivered: false, status: 500 });
      expect(await row()).toMatchObject({ status: "failed", attempts: 1, response_status: 500, due: false });
      expect(receiver.received.at(-1)?.id).toBe(eventId);

      // Due again; claimed by a worker that dies: its lease runs out and the next claim has it.
      receiver.answer = 204;
      await q(`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 second' WHERE event_id = '${eventId}'`);
      expect(await claimDeliveries(10)).toHaveLength(1);
      expect(await claimDeliveries(10)).toHaveLength(0);
      await q(`UPDATE webhook_deliveries SET next_attempt_at = next_attempt_at - interval '${LEASE_SECONDS + 1} seconds' WHERE event_id = '${eventId}'`);
      const [again] = await claimDeliveries(10);
      expect(await attemptDelivery(again!, { allowPrivate: true, allowHttp: true })).toMatchObject({ delivered: true, status: 204 });
      expect(await row()).toMatchObject({ status: "delivered", attempts: 3, response_status: 204 });
      expect(receiver.received.filter((r) => r.id === eventId).map((r) => r.type)).toEqual(["subscriber.created", "subscriber.created"]);
      expect(receiver.invalid).toEqual([]);

      // Resent: pending now, a fresh attempt with the same webhook-id.
      const deliveryId = BigInt((await row()).id);
      await transaction((tx) => resendDelivery(tx, deliveryId));
      expect(await row()).toMatchObject({ status: "pending", due: true });
    });

    it("marks a delivery dead after its last attempt, and turns off an endpoint failing for days, audited", async () => {
      await q(`UPDATE webhook_deliveries SET status = 'delivered', next_attempt_at = NULL`);
      const failing = await insertEndpoint(q, "http://127.0.0.1:9/closed", ["subscriber.created"]);
      await createSubscriber(EVERY, input(4), s.admin);
      await q(`UPDATE webhook_deliveries SET status = 'delivered', next_attempt_at = NULL WHERE endpoint_id <> ${failing.id}`);
      await q(`UPDATE webhook_deliveries SET attempts = ${MAX_ATTEMPTS - 1}, status = 'failed' WHERE endpoint_id = ${failing.id}`);
      await q(`UPDATE webhook_endpoints SET failing_since = now() - interval '4 days' WHERE id = ${failing.id}`);
      const [claimed] = await claimDeliveries(10);
      expect(await attemptDelivery(claimed!, { allowPrivate: true, allowHttp: true })).toMatchObject({ delivered: false, status: null });
      expect(await q(`SELECT status::text, next_attempt_at FROM webhook_deliveries WHERE endpoint_id = ${failing.id}`)).toEqual([{ status: "dead", next_attempt_at: null }]);
      const [endpoint] = await q<{ enabled: boolean; disabled_reason: string }>(`SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = ${failing.id}`);
      expect(endpoint).toMatchObject({ enabled: false, disabled_reason: expect.stringMatching(/failed for 3 days/) });
      // Why the attempt got no answer is kept as a problem key; the endpoint's reason, kept in English, quotes the network error's code.
      const [kept] = await q<{ response_body: string }>(`SELECT response_body FROM webhook_deliveries WHERE endpoint_id = ${failing.id}`);
      expect(kept!.response_body).toBe(problem("webhooks.attempt.connectionRefused", { code: "ECONNREFUSED" }));
      expect(answerText(null, kept!.response_body, problemsIn("fr"))).toBe("Le destinataire a refusé la connexion (ECONNREFUSED).");
      expect(endpoint!.disabled_reason).toBe("Every delivery failed for 3 days (last: ECONNREFUSED).");
      expect(await q(`SELECT entity_id FROM audit_events WHERE action = 'webhook.disable'`)).toEqual([{ entity_id: String(failing.id) }]);
    });

    it("keeps why a delivery to an endpoint turned off meanwhile was dropped, said in the reader's language", async () => {
      await q(`UPDATE webhook_deliveries SET status = 'delivered', next_attempt_at = NULL`);
      const off = await insertEndpoint(q, receiver.url, ["subscriber.created"]);
      await createSubscriber(EVERY, input(6), s.admin);
      await q(`UPDATE webhook_deliveries SET status = 'delivered', next_attempt_at = NULL WHERE endpoint_id <> ${off.id}`);
      await q(`UPDATE webhook_endpoints SET enabled = false WHERE id = ${off.id}`);
      const [claimed] = await claimDeliveries(10);
      expect(await attemptDelivery(claimed!)).toMatchObject({ delivered: false, status: null, body: problem("webhooks.attempt.turnedOff") });
      const [row] = await q<{ status: string; response_status: number | null; response_body: string }>(
        `SELECT status::text, response_status, response_body FROM webhook_deliveries WHERE endpoint_id = ${off.id}`);
      expect(row).toEqual({ status: "dead", response_status: null, response_body: "webhooks.attempt.turnedOff" });
      expect(answerText(row!.response_status, row!.response_body, problemsIn("en"))).toBe("The endpoint is turned off.");
      expect(answerText(row!.response_status, row!.response_body, problemsIn("fr"))).toBe("Le point de terminaison est désactivé.");
      expect(answerText(row!.response_status, row!.response_body, problemsIn("ar"))).toBe("نقطة النهاية متوقفة.");
    });

    it("erases an erased person's events, and purges old finished ones", async () => {
      await insertEndpoint(q, receiver.url, ["subscriber.created", "person.erased"]);
      const created = await createSubscriber(EVERY, input(5), s.admin);
      const held = () => q(`SELECT id FROM webhook_events WHERE type LIKE 'subscriber.%' AND data->>'id' = '${created.id}'`);
      expect(await held()).toHaveLength(1);
      await erasePerson(EVERY, { email: "web.hook5@outbox.test" }, s.admin);
      expect(await held()).toEqual([]);
      const [erased] = await events("person.erased");
      expect(JSON.stringify(erased!.data)).not.toContain(String(created.id) + ",");
      expect(erased!.data).not.toHaveProperty("subscriber_ids");

      await q(`UPDATE webhook_events SET created_at = now() - interval '40 days'`);
      await q(`UPDATE webhook_deliveries SET status = 'pending' WHERE event_id = '${erased!.id}'`);
      expect(await purgeWebhookEvents(30)).toBeGreaterThan(0);
      expect((await events()).map((e) => e.id)).toEqual([erased!.id]);
    });
  });
}
