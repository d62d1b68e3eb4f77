import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, rawRequest, startConsole, type ConsoleServer } from "../helpers/console-server";
import { testDbKinds } from "../helpers/db";
import { unzip } from "../helpers/xlsx-read";

// A user's own language against the production build (docs/API.md, Languages): PATCH
// /api/v1/users/me takes en, fr, ar or null and nothing else; the pages follow the choice, and
// without one the browser's Accept-Language; a token, whatever its scope, cannot write it.

const PASSWORD = "languages-http-password-1";
const ADMIN = { email: "admin@languages.test", password: PASSWORD, role: "admin" as const };
const STAFF = { email: "staff@languages.test", password: PASSWORD, role: "staff" as const };

const lang = (html: string) => /<html[^>]*\blang="([^"]+)"/.exec(html)?.[1];
const dir = (html: string) => /<html[^>]*\bdir="([^"]+)"/.exec(html)?.[1];

for (const kind of testDbKinds()) {
  describe(`a user's language over HTTP on ${kind}`, () => {
    let server: ConsoleServer;
    let admin: Browser;
    let staff: Browser;
    const patch = (who: Browser, body: unknown, headers: Record<string, string> = {}) =>
      who.request("/api/v1/users/me", { method: "PATCH", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });

    beforeAll(async () => {
      server = await startConsole(kind, { users: [ADMIN, STAFF] });
      admin = new Browser(server.url, "127.0.0.61");
      staff = new Browser(server.url, "127.0.0.62");
      expect((await admin.signIn(ADMIN.email, PASSWORD)).status).toBe(200);
      expect((await staff.signIn(STAFF.email, PASSWORD)).status).toBe(200);
    });
    afterAll(async () => server?.close());

    it("takes each language and null, answering the user with it, and lists it in GET /api/v1/users", async () => {
      for (const locale of ["fr", "ar", "en", null]) {
        const answer = await patch(staff, { locale });
        expect(answer.status, answer.body).toBe(200);
        const user = JSON.parse(answer.body) as Record<string, unknown>;
        expect(user).toMatchObject({ email: STAFF.email, role: "staff", locale });
        expect(Object.keys(user)).not.toContain("password_hash");
      }
      await patch(staff, { locale: "fr" });
      const list = JSON.parse((await admin.request("/api/v1/users?email=languages.test")).body) as { data: { email: string; locale: string | null }[] };
      expect(Object.fromEntries(list.data.map((u) => [u.email, u.locale]))).toEqual({ [ADMIN.email]: null, [STAFF.email]: "fr" });
      // Audited as the other account changes.
      const audit = await admin.request("/audit?action=user.locale_change");
      expect(audit.status).toBe(200);
      expect(audit.body).toContain(STAFF.email);
      await patch(staff, { locale: null });
    });

    it("refuses anything else with a 400 naming locale, and unknown keys, changing nothing", async () => {
      await patch(staff, { locale: "ar" });
      for (const body of [{ locale: "de" }, { locale: "FR" }, { locale: "fr-FR" }, { locale: "" }, { locale: 1 }, { locale: ["fr"] }, {}]) {
        const answer = await patch(staff, body);
        expect(answer.status, JSON.stringify(body)).toBe(400);
        const { error } = JSON.parse(answer.body) as { error: { code: string; fields?: Record<string, string[]> } };
        expect(error.code).toBe("invalid_input");
        expect(Object.keys(error.fields ?? {}), JSON.stringify(body)).toEqual(["locale"]);
      }
      const extra = await patch(staff, { locale: "fr", name: "Renamed" });
      expect(extra.status).toBe(400);
      expect(extra.body).toContain("name");
      expect((await patch(staff, "not json")).status).toBe(400);
      expect((await patch(staff, ["fr"])).status).toBe(400);
      // The words of a refusal follow Accept-Language; its code and field names never change.
      const french = JSON.parse((await patch(staff, { locale: "de" }, { "accept-language": "fr" })).body) as { error: { code: string; fields: Record<string, string[]> } };
      expect(french.error.code).toBe("invalid_input");
      expect(french.error.fields.locale?.[0]).toMatch(/langues de la console/);
      // Still Arabic: nothing refused was written.
      expect(lang((await staff.request("/account")).body)).toBe("ar");
      await patch(staff, { locale: null });
    });

    it("renders the next page in the chosen language, and in the browser's without one", async () => {
      expect((await patch(staff, { locale: "fr" })).status).toBe(200);
      const french = await staff.request("/account", { headers: { "accept-language": "en" } });
      expect(french.status).toBe(200);
      expect(lang(french.body)).toBe("fr");
      expect(dir(french.body)).toBe("ltr");
      expect(french.body).toContain("Votre compte");

      expect((await patch(staff, { locale: "ar" })).status).toBe(200);
      const arabic = await staff.request("/branches", { headers: { "accept-language": "fr" } });
      expect(lang(arabic.body)).toBe("ar");
      expect(dir(arabic.body)).toBe("rtl");

      // Following the browser again: Accept-Language decides, else the default.
      expect((await patch(staff, { locale: null })).status).toBe(200);
      expect(lang((await staff.request("/account", { headers: { "accept-language": "fr-CA,fr;q=0.9,en;q=0.5" } })).body)).toBe("fr");
      expect(lang((await staff.request("/account", { headers: { "accept-language": "ar" } })).body)).toBe("ar");
      expect(lang((await staff.request("/account", { headers: { "accept-language": "de" } })).body)).toBe("en");
      expect(lang((await staff.request("/account")).body)).toBe("en");
    });

    it("writes the person archive's summary in the downloader's language, whatever Accept-Language holds", async () => {
      const made = await admin.request("/api/v1/subscribers", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ first_name: "Émile", last_name: "Ødegaard", email: "emile@languages.test", mobile: "+447400777055", subscription_status: "active", is_mandatory: false }),
      });
      expect(made.status, made.body).toBe(201);
      const { id } = JSON.parse(made.body) as { id: number };
      // Binary: fetched whole with the session's cookie, not as text.
      const summary = async (acceptLanguage: string) => {
        const response = await fetch(`${server.url}/api/v1/people/export?subscriber_id=${id}`, { headers: { cookie: admin.cookie, "accept-language": acceptLanguage } });
        expect(response.status, acceptLanguage).toBe(200);
        const files = await unzip(Buffer.from(await response.arrayBuffer()));
        return files.get("summary.csv")!.toString("utf8").replace(/^\uFEFF/, "").split("\r\n");
      };
      const english = await summary("en");
      expect(english[0]).toBe("place,id,when,detail");
      expect(english[1]).toMatch(new RegExp(`^subscriber \\(live\\),${id},`));
      expect(english[2]).toMatch(/,subscriber\.create by admin@languages\.test$/);
      const french = await summary("fr-CA,fr;q=0.9");
      expect(french[0]).toBe("place,id,when,detail");
      expect(french[1]).toMatch(new RegExp(`^abonné \\(actif\\),${id},.*Émile Ødegaard <emile@languages\.test> \\+447400777055$`));
      expect(french[2]).toMatch(/^historique,.*,subscriber\.create par admin@languages\.test$/);
      const arabic = await summary("ar");
      expect(arabic[1]).toMatch(new RegExp(`^مشترك \\(نشط\\),${id},`));
      expect(arabic[2]).toContain("بواسطة");
      // Hostile or meaningless headers: English, never a 500.
      for (const header of ["*", "fr;q=abc", "x".repeat(4000), "ar;q=0,fr;q=0", ",,,;;;", "\u00e9"]) {
        const answer = await fetch(`${server.url}/api/v1/people/export?subscriber_id=${id}`, { headers: { cookie: admin.cookie, "accept-language": header } });
        expect(answer.status, header).toBe(200);
        expect((await unzip(Buffer.from(await answer.arrayBuffer()))).get("summary.csv")!.toString("utf8"), header).toContain("subscriber (live)");
      }
      // Staff may not download it, in any language; the archive answers 403 in the words asked for.
      const refused = await staff.request(`/api/v1/people/export?subscriber_id=${id}`, { headers: { "accept-language": "fr" } });
      expect(refused.status).toBe(403);
      expect((JSON.parse(refused.body) as { error: { code: string } }).error.code).toBe("forbidden");
    });

    it("is refused to anyone signed out, and to a token of either scope, which changes nothing", async () => {
      expect((await rawRequest(server.url, "/api/v1/users/me", { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ locale: "fr" }) })).status).toBe(401);
      const expires_at = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
      for (const scope of ["read", "export"]) {
        const made = await staff.request("/api/v1/tokens", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: `${scope} language`, scope, expires_at }) });
        expect(made.status, made.body).toBe(201);
        const { token } = JSON.parse(made.body) as { token: string };
        const answer = await rawRequest(server.url, "/api/v1/users/me", {
          method: "PATCH",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ locale: "fr" }),
        });
        expect(answer.status, scope).toBe(403);
        // With the session cookie too, the token decides (a bearer request is the token's).
        const both = await staff.request("/api/v1/users/me", {
          method: "PATCH",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ locale: "fr" }),
        });
        expect(both.status, scope).toBe(403);
      }
      expect(lang((await staff.request("/account", { headers: { "accept-language": "en" } })).body)).toBe("en");
    });
  });
}
