import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportWithToken } from "../client/export-with-token";
import { Browser, startConsole, type ConsoleServer } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";

// A client generated from the OpenAPI document (openapi-typescript types, openapi-fetch) runs the
// token script of docs/people-and-tokens.md against the production build, typed end to end.

const PASSWORD = "client-password-123456";
const STAFF = { email: "staff@client.test", password: PASSWORD, role: "staff" as const };

for (const kind of testDbKinds()) {
  describe(`the generated client on ${kind}`, () => {
    let server: ConsoleServer;
    let staff: Browser;
    const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    beforeAll(async () => {
      server = await startConsole(kind, { users: [STAFF], env: { JOB_POLL_SECONDS: "1" } });
      staff = new Browser(server.url, "127.0.0.71");
      expect((await staff.signIn(STAFF.email, PASSWORD)).status).toBe(200);
      for (const [i, status] of ["active", "active", "pending"].entries()) {
        const made = await staff.request("/api/v1/subscribers", json({ first_name: `Cli${i}`, last_name: "Ent", email: `cli${i}@client.test`, mobile: `+4474005552${i}0`, subscription_status: status, is_mandatory: false }));
        expect(made.status, made.body).toBe(201);
      }
    });
    afterAll(async () => server?.close());

    it("lists, requests an export, polls it and downloads the file with an export token", async () => {
      const expires_at = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
      const made = await staff.request("/api/v1/tokens", json({ name: "typed client", scope: "export", expires_at }));
      expect(made.status, made.body).toBe(201);
      const { token } = JSON.parse(made.body) as { token: string };

      const { list, csv, filename } = await exportWithToken(server.url, token);
      expect(list.pagination.total).toBe(3);
      expect(list.data.map((s) => s.first_name).sort()).toEqual(["Cli0", "Cli1", "Cli2"]);
      expect(filename).toMatch(/^subscribers-\d{8}-\d{4}\.csv$/);
      const lines = csv.replace(/^\uFEFF/, "").trim().split(/\r?\n/);
      expect(lines[0]).toMatch(/^id,first_name,last_name,/);
      expect(lines.slice(1).map((line) => line.split(",")[1]).sort()).toEqual(["Cli0", "Cli1"]);
    });
  });
}
