import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as listApi from "@/app/api/v1/webhooks/route";
import * as oneApi from "@/app/api/v1/webhooks/[id]/route";
import * as rotateApi from "@/app/api/v1/webhooks/[id]/rotate-secret/route";
import * as testApi from "@/app/api/v1/webhooks/[id]/test/route";
import * as deliveriesApi from "@/app/api/v1/webhooks/[id]/deliveries/route";
import * as resendApi from "@/app/api/v1/webhooks/[id]/deliveries/[delivery_id]/resend/route";
import { createWebhookAction, rotateWebhookSecretAction } from "@/app/(console)/webhooks/actions";
import type { SessionUser } from "@/lib/auth/permissions";
import type { Database } from "@/lib/db/client";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest, expectRefused, routeContext } from "../helpers/http";

// Outgoing webhooks as administrators see them (docs/API.md, "Webhooks (admins)"): the secret's
// form and that it is shown once, targets the engine refuses, bad input, unknown ids, staff's 403,
// rotation's overlap, test events and resending, on PGlite and PostgreSQL.

type Endpoint = { id: number; url: string; description: string; events: string[]; enabled: boolean; created_at: string; disabled_reason: string | null; secret?: string; previous_secret_until?: string | null };
type Delivery = { id: number; event_id: string; type: string; status: string; attempts: number; response_status: number | null; duration_ms: number | null; next_attempt_at: string | null; created_at: string };
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string[]> } };
type List<T> = { data: T[]; pagination: { total: number; length: number; page: number; per_page: number } };

// Public addresses written as IPs: the engine's check resolves no name for them.
const PUBLIC = "https://93.184.215.14/hooks";
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

const ctx = (id: number | string) => routeContext({ id: String(id) });
const create = (json: unknown) => listApi.POST(apiRequest("/api/v1/webhooks", { method: "POST", json }), {});
const get = (id: number | string) => oneApi.GET(apiRequest(`/api/v1/webhooks/${id}`), ctx(id));
const patch = (id: number | string, json: unknown) => oneApi.PATCH(apiRequest(`/api/v1/webhooks/${id}`, { method: "PATCH", json }), ctx(id));
const remove = (id: number | string) => oneApi.DELETE(apiRequest(`/api/v1/webhooks/${id}`, { method: "DELETE" }), ctx(id));
const rotate = (id: number | string) => rotateApi.POST(apiRequest(`/api/v1/webhooks/${id}/rotate-secret`, { method: "POST" }), ctx(id));
const ping = (id: number | string) => testApi.POST(apiRequest(`/api/v1/webhooks/${id}/test`, { method: "POST" }), ctx(id));
const deliveries = (id: number | string, query = "") => deliveriesApi.GET(apiRequest(`/api/v1/webhooks/${id}/deliveries${query}`), ctx(id));
const resend = (id: number | string, delivery: number | string) =>
  resendApi.POST(apiRequest(`/api/v1/webhooks/${id}/deliveries/${delivery}/resend`, { method: "POST" }), { params: Promise.resolve({ id: String(id), delivery_id: String(delivery) }) });

async function made(json: Record<string, unknown> = {}): Promise<Endpoint> {
  const response = await create({ url: PUBLIC, events: ["subscriber.created"], ...json });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Endpoint;
}
const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;

const ENV = ["WEBHOOK_ALLOW_PRIVATE", "WEBHOOK_ALLOW_HTTP", "WEBHOOK_SECRET_OVERLAP_HOURS"] as const;

for (const kind of testDbKinds()) {
  describe(`webhook endpoints on ${kind}`, () => {
    let database: Database;
    let users: { admin: SessionUser; staff: SessionUser };
    const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

    beforeAll(async () => {
      database = await testDatabase(kind);
      users = await createUsers(database);
    });
    afterAll(async () => {
      await database?.close();
    });
    beforeEach(() => actAs(users.admin));
    afterEach(() => {
      for (const k of ENV) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    });

    it("creates an endpoint with a whsec_ secret, in the creation's answer only", async () => {
      const endpoint = await made({ description: "CRM", events: ["subscriber.created", "branch.deleted", "subscriber.created"] });
      expect(endpoint).toMatchObject({ url: PUBLIC, description: "CRM", events: ["subscriber.created", "branch.deleted"], enabled: true, disabled_reason: null, previous_secret_until: null });
      expect(endpoint.secret).toMatch(SECRET);
      expect(Buffer.from(endpoint.secret!.slice("whsec_".length), "base64")).toHaveLength(32);
      const row = await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      expect(row.secret).toBe(endpoint.secret);
      expect(row.created_by).toBe(users.admin.id);
      // Never read back: not by one endpoint, not in the list.
      const one = await (await get(endpoint.id)).json();
      expect(Object.keys(one).sort()).toEqual(["created_at", "description", "disabled_reason", "enabled", "events", "id", "url"]);
      const list = (await (await listApi.GET(apiRequest("/api/v1/webhooks"), {})).json()) as List<Endpoint>;
      expect(list.data.find((e) => e.id === endpoint.id)).toEqual(one);
      expect(JSON.stringify(list)).not.toContain(endpoint.secret);
      // Two endpoints never share a secret.
      expect((await made()).secret).not.toBe(endpoint.secret);
      // Audited, without the secret.
      const audit = await database.prisma.auditEvent.findFirstOrThrow({ where: { action: "webhook.create", entity_id: String(endpoint.id) } });
      expect(audit.actor_id).toBe(users.admin.id);
      expect(JSON.stringify({ before: audit.before, after: audit.after })).not.toContain(endpoint.secret!.slice(6));
    });

    it("refuses targets the engine would not deliver to: 400 webhook_target_refused", async () => {
      for (const url of ["https://127.0.0.1/hook", "https://10.1.2.3/hook", "https://[::1]/hook", "https://169.254.169.254/latest", "http://93.184.215.14/hook", "ftp://93.184.215.14/"]) {
        const response = await create({ url, events: ["ping"] });
        expect(response.status, url).toBe(400);
        const error = await errorOf(response);
        expect(error.code, url).toBe("webhook_target_refused");
        expect(error.message, url).toMatch(/refused/);
      }
      expect(await errorOf(await create({ url: "http://93.184.215.14/hook", events: ["ping"] }))).toMatchObject({ message: expect.stringContaining("WEBHOOK_ALLOW_HTTP=1") });
      // A change of URL is checked the same way.
      const endpoint = await made();
      const changed = await patch(endpoint.id, { url: "https://192.168.1.10/hook" });
      expect(changed.status).toBe(400);
      expect((await errorOf(changed)).code).toBe("webhook_target_refused");
      expect((await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).url).toBe(PUBLIC);
      // Allowed by the operator: private and http; the metadata address never.
      process.env.WEBHOOK_ALLOW_PRIVATE = "1";
      process.env.WEBHOOK_ALLOW_HTTP = "1";
      expect((await create({ url: "http://127.0.0.1:3193/hook", events: ["ping"] })).status).toBe(201);
      expect((await errorOf(await create({ url: "http://169.254.169.254/latest", events: ["ping"] }))).code).toBe("webhook_target_refused");
    });

    it("answers 400 for unknown events, no events, a URL that is not one and unknown keys", async () => {
      const cases: [unknown, string][] = [
        [{ url: PUBLIC, events: ["subscriber.created", "subscriber.exploded"] }, "events"],
        [{ url: PUBLIC, events: [] }, "events"],
        [{ url: PUBLIC }, "events"],
        [{ url: PUBLIC, events: "subscriber.created" }, "events"],
        [{ url: "not a url", events: ["ping"] }, "url"],
        [{ url: "", events: ["ping"] }, "url"],
        [{ events: ["ping"] }, "url"],
        [{ url: PUBLIC, events: ["ping"], description: "x".repeat(501) }, "description"],
        [{ url: PUBLIC, events: ["ping"], secret: "whsec_mine" }, ""],
      ];
      const before = await database.prisma.webhookEndpoint.count();
      for (const [json, field] of cases) {
        const response = await create(json);
        expect(response.status, JSON.stringify(json)).toBe(400);
        const error = await errorOf(response);
        expect(error.code).toBe("invalid_input");
        if (field) expect(Object.keys(error.fields ?? {}), JSON.stringify(json)).toContain(field);
      }
      expect((await errorOf(await create({ url: PUBLIC, events: ["subscriber.exploded"] }))).fields?.events?.[0]).toMatch(/Unknown event: subscriber\.exploded/);
      const endpoint = await made();
      expect((await patch(endpoint.id, { events: [] })).status).toBe(400);
      expect((await patch(endpoint.id, { enabled: "yes" })).status).toBe(400);
      expect(await database.prisma.webhookEndpoint.count()).toBe(before + 1);
    });

    it("answers 404 for unknown endpoints and deliveries, and another endpoint's delivery", async () => {
      for (const id of ["2147483647", "01", "abc"]) {
        expect((await get(id)).status, id).toBe(404);
        expect((await patch(id, { enabled: false })).status, id).toBe(404);
        expect((await remove(id)).status, id).toBe(404);
        expect((await rotate(id)).status, id).toBe(404);
        expect((await ping(id)).status, id).toBe(404);
        expect((await deliveries(id)).status, id).toBe(404);
        expect((await resend(id, 1)).status, id).toBe(404);
      }
      const [a, b] = [await made(), await made()];
      const delivery = (await (await ping(a.id)).json()) as Delivery;
      expect((await resend(b.id, delivery.id)).status).toBe(404);
      expect((await resend(a.id, "999999999")).status).toBe(404);
      expect((await resend(a.id, "0x1")).status).toBe(404);
      expect((await resend(a.id, delivery.id)).status).toBe(200);
    });

    it("refuses staff every route and action with 403, and changes nothing", async () => {
      const endpoint = await made();
      const delivery = (await (await ping(endpoint.id)).json()) as Delivery;
      const before = await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      actAs(users.staff);
      const answers = [
        await listApi.GET(apiRequest("/api/v1/webhooks"), {}),
        await create({ url: PUBLIC, events: ["ping"] }),
        await get(endpoint.id),
        await patch(endpoint.id, { enabled: false }),
        await remove(endpoint.id),
        await rotate(endpoint.id),
        await ping(endpoint.id),
        await deliveries(endpoint.id),
        await resend(endpoint.id, delivery.id),
      ];
      expect(answers.map((r) => r.status)).toEqual(Array(answers.length).fill(403));
      await expectRefused(createWebhookAction({ url: PUBLIC, events: ["ping"] }), 403);
      await expectRefused(rotateWebhookSecretAction({ id: endpoint.id }), 403);
      actAs(null);
      expect((await get(endpoint.id)).status).toBe(401);
      expect(await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toEqual(before);
    });

    it("rotates the secret: the new one once, the old one kept until now + WEBHOOK_SECRET_OVERLAP_HOURS", async () => {
      const endpoint = await made();
      const started = Date.now();
      const response = await rotate(endpoint.id);
      expect(response.status).toBe(201);
      const rotated = (await response.json()) as Endpoint;
      expect(rotated.secret).toMatch(SECRET);
      expect(rotated.secret).not.toBe(endpoint.secret);
      const row = await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      expect(row.secret).toBe(rotated.secret);
      expect(row.previous_secret).toBe(endpoint.secret);
      const until = row.previous_secret_until!.getTime();
      expect(until).toBeGreaterThanOrEqual(started + 24 * 3_600_000 - 1000);
      expect(until).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000 + 1000);
      expect(rotated.previous_secret_until).toBe(row.previous_secret_until!.toISOString());
      const audit = await database.prisma.auditEvent.findFirstOrThrow({ where: { action: "webhook.rotate_secret", entity_id: String(endpoint.id) } });
      expect(JSON.stringify({ before: audit.before, after: audit.after })).not.toContain(rotated.secret!.slice(6));
      expect(JSON.stringify({ before: audit.before, after: audit.after })).not.toContain(endpoint.secret!.slice(6));
      // Rotated again: the secret it replaces is the one kept, for the configured overlap.
      process.env.WEBHOOK_SECRET_OVERLAP_HOURS = "2";
      const again = (await (await rotate(endpoint.id)).json()) as Endpoint;
      const after = await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      expect(after.secret).toBe(again.secret);
      expect(after.previous_secret).toBe(rotated.secret);
      expect(Math.abs(after.previous_secret_until!.getTime() - (Date.now() + 2 * 3_600_000))).toBeLessThan(5_000);
      // The page's action answers the same, and says the overlap.
      const action = await rotateWebhookSecretAction({ id: endpoint.id });
      expect(action).toMatchObject({ ok: true, data: { url: PUBLIC, secret: expect.stringMatching(SECRET), hours: 2 } });
    });

    it("sends a test event, lists deliveries paged, and resending puts one back to pending", async () => {
      const endpoint = await made({ enabled: false });
      const response = await ping(endpoint.id);
      expect(response.status).toBe(202);
      const delivery = (await response.json()) as Delivery;
      expect(delivery).toMatchObject({ type: "ping", status: "pending", attempts: 0, response_status: null, duration_ms: null });
      const event = await database.prisma.webhookEvent.findUniqueOrThrow({ where: { id: delivery.event_id } });
      expect(event.data).toMatchObject({ webhook_id: endpoint.id });
      expect(await database.prisma.auditEvent.count({ where: { action: "webhook.test", entity_id: String(endpoint.id) } })).toBe(1);
      for (let i = 0; i < 11; i++) expect((await ping(endpoint.id)).status).toBe(202);
      const first = (await (await deliveries(endpoint.id)).json()) as List<Delivery>;
      expect(first.pagination).toEqual({ total: 12, length: 2, page: 1, per_page: 10 });
      expect(first.data).toHaveLength(10);
      const second = (await (await deliveries(endpoint.id, "?page=2")).json()) as List<Delivery>;
      expect(second.data).toHaveLength(2);
      // Newest first: the first test event is the last of the last page.
      expect(second.data.at(-1)).toEqual(delivery);
      expect((await deliveries(endpoint.id, "?page=0")).status).toBe(400);
      // A dead delivery, sent again: pending, to be tried now.
      await database.prisma.webhookDelivery.update({ where: { id: BigInt(delivery.id) }, data: { status: "dead", attempts: 9, next_attempt_at: null, response_status: 500 } });
      const resent = await resend(endpoint.id, delivery.id);
      expect(resent.status).toBe(200);
      const back = (await resent.json()) as Delivery;
      expect(back).toMatchObject({ id: delivery.id, status: "pending", attempts: 9 });
      expect(Math.abs(new Date(back.next_attempt_at!).getTime() - Date.now())).toBeLessThan(60_000);
      expect(await database.prisma.auditEvent.count({ where: { action: "webhook.resend", entity_id: String(endpoint.id) } })).toBe(1);
    });

    it("changes an endpoint; turning it on again clears why the console turned it off", async () => {
      const endpoint = await made();
      const changed = await patch(endpoint.id, { description: "Billing", events: ["branch.created"] });
      expect(await changed.json()).toMatchObject({ description: "Billing", events: ["branch.created"], url: PUBLIC });
      await database.prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false, disabled_reason: "Every attempt failed for 3 days.", failing_since: new Date(Date.now() - 4 * 86_400_000) } });
      expect(await (await get(endpoint.id)).json()).toMatchObject({ enabled: false, disabled_reason: "Every attempt failed for 3 days." });
      const on = await patch(endpoint.id, { enabled: true });
      expect(await on.json()).toMatchObject({ enabled: true, disabled_reason: null });
      const row = await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      expect(row).toMatchObject({ disabled_reason: null, failing_since: null });
      const audit = await database.prisma.auditEvent.findMany({ where: { action: "webhook.update", entity_id: String(endpoint.id) }, orderBy: { id: "asc" } });
      expect(audit).toHaveLength(2);
      expect(audit[1]!.after).toMatchObject({ enabled: true });
    });

    it("deletes an endpoint with its deliveries", async () => {
      const endpoint = await made();
      await ping(endpoint.id);
      const response = await remove(endpoint.id);
      expect(response.status).toBe(204);
      expect(await database.prisma.webhookEndpoint.findUnique({ where: { id: endpoint.id } })).toBeNull();
      expect(await database.prisma.webhookDelivery.count({ where: { endpoint_id: endpoint.id } })).toBe(0);
      expect((await remove(endpoint.id)).status).toBe(404);
      const audit = await database.prisma.auditEvent.findFirstOrThrow({ where: { action: "webhook.delete", entity_id: String(endpoint.id) } });
      expect(audit.before).toMatchObject({ url: PUBLIC });
    });

    it("creates through the page's action, with the secret in its answer", async () => {
      const result = await createWebhookAction({ url: PUBLIC, description: "", events: ["import.completed"] });
      expect(result).toMatchObject({ ok: true, data: { url: PUBLIC, secret: expect.stringMatching(SECRET) } });
      expect(await createWebhookAction({ url: "https://127.0.0.1/", events: ["ping"] })).toMatchObject({ ok: false, fieldErrors: { url: [expect.stringContaining("loopback")] } });
      expect(await createWebhookAction({ url: PUBLIC, events: [] })).toMatchObject({ ok: false, fieldErrors: { events: ["Choose at least one event."] } });
    });
  });
}
