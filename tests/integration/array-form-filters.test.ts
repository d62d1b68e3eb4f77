import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as branchesGET } from "@/app/api/v1/branches/route";
import { GET as subscribersGET } from "@/app/api/v1/subscribers/route";
import type { Database } from "@/lib/db/client";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { apiRequest } from "../helpers/http";

// A filter sent in the PHP array form (`country_name[]=x`) is refused with a 400 naming it, in the
// answer's language, as a filter given twice is: never dropped, answering every row unfiltered.

type Refusal = { error: { code: string; message: string; fields: Record<string, string[]> } };

for (const kind of testDbKinds()) {
  describe(`filters in the array form (${kind})`, () => {
    let database: Database;

    beforeAll(async () => {
      database = await testDatabase(kind);
      actAs((await createUsers(database)).admin);
    });
    afterAll(async () => {
      actAs(null);
      await database?.close();
    });

    it.each([
      ["country_name[]=France", "country_name"],
      ["country_name%5B%5D=France", "country_name"],
      ["country_name[0]=France&country_name[1]=Spain", "country_name"],
      ["subscription_status[]=active", "subscription_status"],
      ["id[]=1", "id"],
    ])("GET /api/v1/subscribers?%s is a 400 naming %s", async (query, field) => {
      const response = await subscribersGET(apiRequest(`/api/v1/subscribers?${query}`), {});
      expect(response.status).toBe(400);
      const body = (await response.json()) as Refusal;
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.fields[field]).toEqual(["Give this parameter one value (name=value), not a list (name[]=…)."]);
    });

    it("says so in French and Arabic", async () => {
      const said = async (language: string) =>
        ((await (await subscribersGET(apiRequest("/api/v1/subscribers?country_name[]=France", { headers: { "accept-language": language } }), {})).json()) as Refusal).error.fields
          .country_name;
      expect(await said("fr")).toEqual(["Donnez à ce paramètre une seule valeur (nom=valeur), pas une liste (nom[]=…)."]);
      expect(await said("ar")).toEqual(["أدخل قيمة واحدة لهذه المعلمة (الاسم=القيمة)، لا قائمة (الاسم[]=…)."]);
    });

    it("GET /api/v1/branches?name[]=x is a 400 too; the plain form still filters", async () => {
      const refused = await branchesGET(apiRequest("/api/v1/branches?name[]=north"), undefined as never);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as Refusal).error.fields.name).toEqual(["Give this parameter one value (name=value), not a list (name[]=…)."]);
      expect((await branchesGET(apiRequest("/api/v1/branches?name=north"), undefined as never)).status).toBe(200);
      expect((await subscribersGET(apiRequest("/api/v1/subscribers?country_name=France"), {})).status).toBe(200);
    });
  });
}
