import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { branchSchema } from "@/lib/branches/schema";
import { exportStatusSchema } from "@/lib/export/schema";
import { importStatusSchema } from "@/lib/imports/schema";
import { bulkChangeRecordSchema } from "@/lib/subscribers/bulk-schema";
import { mergeAnswerSchema } from "@/lib/subscribers/duplicate-schema";
import { subscriberRecordSchema } from "@/lib/subscribers/schema";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/events";
import { Browser, startConsole, type ConsoleServer } from "../helpers/console-server";
import { seedSubscribers } from "../helpers/export-data";
import { startNextServer, type NextServer } from "../helpers/next-server";
import { freePort } from "../helpers/pg-cluster";
import { insertEndpoint, startReceiver, until, type Receiver } from "../helpers/webhooks";

// Webhooks end to end against the production build: every change made through the API sends its
// event once, signed (the standardwebhooks library verifies each), its `data` accepted by the API's
// own schema for the resource; a receiver that is down is retried; a server killed mid-delivery
// delivers after its restart, with the same webhook-id.

const PASSWORD = "webhooks-http-password-1";
const ADMIN = { email: "admin@hooks.test", password: PASSWORD, role: "admin" as const, name: "Ada Admin" };
const SETTINGS = { WEBHOOK_ALLOW_PRIVATE: "1", WEBHOOK_ALLOW_HTTP: "1", WEBHOOK_RETRY_FIRST_SECONDS: "1", JOB_POLL_SECONDS: "1" };

type Json = Record<string, unknown>;

/** Each event type's data, as the API's own schema for that resource reads it. */
const DATA_SCHEMAS: Record<string, z.ZodType> = {
  "subscriber.created": subscriberRecordSchema,
  "subscriber.updated": subscriberRecordSchema.extend({ changed: z.array(z.string()).min(1) }),
  "subscriber.deleted": subscriberRecordSchema,
  "subscriber.restored": subscriberRecordSchema,
  "subscribers.merged": mergeAnswerSchema.and(z.object({ merged_ids: z.array(z.number().int()) })),
  "bulk_change.completed": bulkChangeRecordSchema,
  "import.completed": importStatusSchema,
  "export.completed": exportStatusSchema.and(z.object({ export_id: z.string(), download_url: z.string().startsWith("/api/v1/exports/") })),
  "branch.created": branchSchema,
  "branch.updated": branchSchema,
  "branch.deleted": branchSchema,
  "person.erased": z.object({ erased_subscribers: z.number().int() }).loose(),
};

if (process.env.TEST_DATABASE_URL) {
  describe("webhooks over HTTP", () => {
    let server: ConsoleServer;
    let restarted: NextServer | undefined;
    let admin: Browser;
    let receiver: Receiver;
    let secret = "";
    let base = "";
    const send = async (method: string, path: string, body?: unknown) => {
      const headers: Record<string, string> = body === undefined ? { origin: base } : { "content-type": "application/json", origin: base };
      const response = await admin.request(path, body === undefined ? { method, headers } : { method, headers, body: JSON.stringify(body) });
      return { status: response.status, body: response.body ? (JSON.parse(response.body) as Json) : ({} as Json) };
    };
    const ok = async (method: string, path: string, body?: unknown) => {
      const answer = await send(method, path, body);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return answer.body;
    };
    const subscriber = (n: number, mobile = `+44 7400 70${String(n).padStart(4, "0")}`) => ({
      first_name: "Hook",
      last_name: `Person${n}`,
      email: `hook.person${n}@hooks.test`,
      mobile,
      subscription_status: "pending",
      is_mandatory: false,
    });
    const ofType = (type: string) => receiver.received.filter((r) => r.type === type);

    beforeAll(async () => {
      receiver = await startReceiver(() => secret);
      server = await startConsole("postgres", { users: [ADMIN], seed: (run) => seedSubscribers(run, 12), env: SETTINGS });
      base = server.url;
      admin = new Browser(server.url, "127.0.0.71");
      expect((await admin.signIn(ADMIN.email, PASSWORD)).status).toBe(200);
      const run = async (text: string) => (await server.sql!(text)) as { id: number }[];
      const endpoint = await insertEndpoint(run, receiver.url, WEBHOOK_EVENT_TYPES.filter((t) => t !== "ping"));
      secret = endpoint.secret;
    }, 120_000);
    afterAll(async () => {
      await restarted?.stop();
      await server?.close();
      await receiver?.close();
    });

    it("sends each change's event once, verified, with the API's representation", async () => {
      const created = await ok("POST", "/api/v1/subscribers", subscriber(1));
      const id = created.id as number;
      const record = await ok("GET", `/api/v1/subscribers/${id}`);
      await ok("PATCH", `/api/v1/subscribers/${id}`, { last_name: "Renamed", updated_at: record.updated_at });
      expect((await send("DELETE", `/api/v1/subscribers/${id}`)).status).toBe(204);
      await ok("POST", `/api/v1/trash/subscribers/${id}/restore`);

      // Two duplicates (same mobile), merged.
      const a = (await ok("POST", "/api/v1/subscribers", subscriber(2, "+44 7400 799999"))).id as number;
      const b = (await ok("POST", "/api/v1/subscribers", subscriber(3, "+44 7400 799999"))).id as number;
      const [ra, rb] = [await ok("GET", `/api/v1/subscribers/${a}`), await ok("GET", `/api/v1/subscribers/${b}`)];
      await ok("POST", "/api/v1/subscribers/merge", { survivor_id: a, merged_ids: [b], updated_at: { [a]: ra.updated_at, [b]: rb.updated_at } });

      const bulk = await ok("POST", "/api/v1/subscribers/bulk", { ids: [1, 2, 3], change: { is_mandatory: true } });

      const boundary = "hooks-boundary";
      const csv = "first_name,last_name,email,mobile\r\nImp,One,imp.one@hooks.test,+447400811111\r\nImp,Two,imp.two@hooks.test,+447400822222\r\n";
      const multipart = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="people.csv"\r\ncontent-type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
      const upload = await admin.request("/api/v1/subscribers/imports", { method: "POST", headers: { origin: base, "content-type": `multipart/form-data; boundary=${boundary}` }, body: multipart });
      expect(upload.status, upload.body).toBe(202);

      expect((await send("POST", "/api/v1/subscribers/export")).status).toBe(202);

      const branch = await ok("POST", "/api/v1/branches", { name: "Hooked branch" });
      await ok("PATCH", `/api/v1/branches/${branch.id as number}`, { name: "Hooked branch renamed" });
      expect((await send("DELETE", `/api/v1/branches/${branch.id as number}`)).status).toBe(204);

      // The file is fetched through the event's reference before the erasure, which may withdraw it.
      await until(() => ofType("export.completed").length, (n) => n > 0, 60_000, "the export's event");
      const file = await admin.request(ofType("export.completed")[0]!.data.download_url as string);
      expect(file.status).toBe(200);

      await ok("POST", "/api/v1/people/erase", { email: "user5@example.com", confirm: true });

      const expected: Record<string, number> = Object.fromEntries(WEBHOOK_EVENT_TYPES.filter((t) => t !== "ping").map((t) => [t, 1]));
      expected["subscriber.created"] = 3;
      const counts = () => Object.fromEntries(Object.keys(expected).map((t) => [t, new Set(ofType(t).map((r) => r.id)).size]));
      await until(counts, (c) => Object.entries(expected).every(([t, n]) => c[t]! >= n), 60_000, "every event");
      // A moment more: nothing arrives twice.
      await new Promise((r) => setTimeout(r, 2_000));
      expect(counts()).toEqual(expected);
      expect(receiver.invalid).toEqual([]);

      for (const event of receiver.received) {
        const parsed = DATA_SCHEMAS[event.type]!.safeParse(event.data);
        expect(parsed.success, `${event.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
        expect(event.headers["webhook-signature"]).toMatch(/^v1,/);
        expect(Date.parse(event.timestamp)).not.toBeNaN();
      }
      expect(ofType("subscriber.updated")[0]!.data.changed).toEqual(["last_name"]);
      expect(ofType("bulk_change.completed")[0]!.data).toMatchObject({ id: bulk.id, status: "completed" });
      expect(ofType("subscribers.merged")[0]!.data).toMatchObject({ merged_ids: [b] });
      expect(JSON.stringify(ofType("person.erased")[0]!.data)).not.toContain("user5@example.com");
    });

    it("retries a receiver that is down until it is back", async () => {
      receiver.answer = 503;
      const branch = await ok("POST", "/api/v1/branches", { name: "Retried branch" });
      const rows = () => server.sql!(`SELECT d.status::text AS status, d.attempts FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE e.type = 'branch.created' AND e.data->>'id' = '${branch.id as number}'`);
      const seen = () => receiver.received.filter((r) => r.type === "branch.created" && r.data.id === branch.id);
      await until(rows, (r) => r[0]?.status === "failed" && Number(r[0]?.attempts) >= 2, 30_000, "two failed attempts");
      // The row counts an attempt when it is claimed, the receiver once it has answered: two refused.
      await until(() => seen().length, (n) => n >= 2, 30_000, "two refused requests");
      receiver.answer = 204;
      await until(rows, (r) => r[0]?.status === "delivered", 60_000, "the delivery");
      // Every attempt (the receiver saw the failed ones too) carried the same event and webhook-id.
      const attempts = seen();
      expect(attempts.length).toBeGreaterThanOrEqual(3);
      expect(new Set(attempts.map((r) => r.id)).size).toBe(1);
    });

    it("delivers after a server killed mid-delivery is started again: same webhook-id, never lost", async () => {
      receiver.answer = "hold";
      const branch = await ok("POST", "/api/v1/branches", { name: "Killed branch" });
      await until(() => receiver.held.length, (n) => n > 0, 30_000, "the held request");
      const heldId = receiver.held[0]!;
      server.child.kill("SIGKILL");
      await new Promise<void>((resolve) => (server.child.exitCode !== null || server.child.signalCode !== null ? resolve() : server.child.once("exit", () => resolve())));
      receiver.answer = 204;
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      restarted = await startNextServer({
        port,
        env: { ...SETTINGS, DATABASE_URL: server.databaseUrl!, DATABASE_SENTINEL: "off", NEXTAUTH_SECRET: server.secret, NEXTAUTH_URL: base },
      });
      const delivered = await until(
        () => receiver.received.filter((r) => r.id === heldId),
        (list) => list.length > 0,
        90_000,
        "the delivery after the restart",
      );
      expect(delivered[0]).toMatchObject({ type: "branch.created", data: { id: branch.id } });
      // Recorded once the receiver's answer is in (it is read after the receiver saw the request).
      const rows = () => server.sql!(`SELECT status::text AS status FROM webhook_deliveries WHERE event_id = $1`, [heldId]);
      expect(await until(rows, (r) => r[0]?.status === "delivered", 15_000, "the delivery recorded")).toEqual([{ status: "delivered" }]);
    });
  });
}
