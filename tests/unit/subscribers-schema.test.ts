import { describe, expect, it } from "vitest";
import { emailKey, subscriberEditSchema, subscriberFormSchema, subscriberInputSchema, subscriberPatchSchema } from "@/lib/subscribers/schema";
import { fieldErrors as rawFieldErrors } from "@/lib/validation/common";
import { fieldWords } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";

// Messages are problem keys (lib/i18n/problem.ts): read here in English, as the API answers them.
const english = problemsIn("en");
const fieldErrors = (error: Parameters<typeof rawFieldErrors>[0]) => fieldWords(rawFieldErrors(error), english) ?? {};

const valid = {
  first_name: "  Ada ",
  last_name: "Lovelace",
  email: "  Ada.Lovelace@Example.com ",
  mobile: "+44 7400 123456",
  subscription_status: "active",
  is_mandatory: true,
};

const fieldsOf = (input: unknown) => {
  const r = subscriberInputSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), english(i.message)]));
};

describe("subscriber input schema", () => {
  it("trims, keeps the email as typed, and fills the optional fields with null", () => {
    expect(subscriberInputSchema.parse(valid)).toEqual({
      first_name: "Ada",
      last_name: "Lovelace",
      email: "Ada.Lovelace@Example.com",
      mobile: "+44 7400 123456",
      branch_id: null,
      country_id: null,
      travel_date: null,
      sheet_name: null,
      subscription_status: "active",
      is_mandatory: true,
    });
  });

  it("reads every optional field", () => {
    const r = subscriberInputSchema.parse({ ...valid, branch_id: 3, country_id: 77, travel_date: "2027-02-28", sheet_name: " Spring " });
    expect(r).toMatchObject({ branch_id: 3, country_id: 77, travel_date: "2027-02-28", sheet_name: "Spring" });
  });

  it("treats empty optional values as absent", () => {
    const r = subscriberInputSchema.parse({ ...valid, branch_id: null, country_id: undefined, travel_date: "", sheet_name: "   " });
    expect(r).toMatchObject({ branch_id: null, country_id: null, travel_date: null, sheet_name: null });
  });

  it("never takes is_duplicate (or any unknown key) from the client", () => {
    const r = subscriberInputSchema.parse({ ...valid, is_duplicate: true, id: 5, created_at: "2020-01-01" });
    expect(r).not.toHaveProperty("is_duplicate");
    expect(r).not.toHaveProperty("id");
    expect(r).not.toHaveProperty("created_at");
  });

  it.each([
    [{ first_name: "" }, "first_name"],
    [{ first_name: "   " }, "first_name"],
    [{ last_name: "x".repeat(101) }, "last_name"],
    [{ email: "not-an-email" }, "email"],
    [{ email: "a@b" }, "email"],
    [{ email: `${"a".repeat(250)}@x.io` }, "email"],
    [{ mobile: "" }, "mobile"],
    [{ mobile: "call me" }, "mobile"],
    [{ branch_id: 0 }, "branch_id"],
    [{ branch_id: "3" }, "branch_id"],
    [{ country_id: 1.5 }, "country_id"],
    [{ travel_date: "2027-02-30" }, "travel_date"],
    [{ travel_date: "28/02/2027" }, "travel_date"],
    [{ travel_date: "1899-12-31" }, "travel_date"],
    [{ sheet_name: "s".repeat(101) }, "sheet_name"],
    [{ subscription_status: "paused" }, "subscription_status"],
    [{ subscription_status: undefined }, "subscription_status"],
    [{ is_mandatory: "yes" }, "is_mandatory"],
  ])("rejects %o on %s", (change, field) => {
    expect(Object.keys(fieldsOf({ ...valid, ...change }))).toEqual([field]);
  });

  it("says which statuses exist", () => {
    expect(fieldsOf({ ...valid, subscription_status: "paused" }).subscription_status).toBe(
      "Choose a status: pending, active, expired, cancelled.",
    );
  });
});

describe("subscriber form schema", () => {
  const codes = new Map([[1, "GB"], [2, "FR"]]);
  const schema = subscriberFormSchema((id) => codes.get(id));

  it("checks the mobile against the chosen country", () => {
    expect(schema.safeParse({ ...valid, mobile: "07400 123456", country_id: 1 }).success).toBe(true);
    expect(schema.safeParse({ ...valid, mobile: "06 12 34 56 78", country_id: 2 }).success).toBe(true);
    const wrong = schema.safeParse({ ...valid, mobile: "07400 123456", country_id: 2 });
    expect(wrong.success).toBe(false);
    if (!wrong.success) expect(wrong.error.issues.map((i) => i.path.join("."))).toEqual(["mobile"]);
  });

  it("asks for the country code when there is no country", () => {
    const r = schema.safeParse({ ...valid, mobile: "07400 123456" });
    expect(r.success).toBe(false);
    if (!r.success) expect(english(r.error.issues[0]?.message ?? "")).toMatch(/country code/);
  });
});

describe("emailKey (the duplicate rule's 'same email')", () => {
  it("ignores case and surrounding spaces, nothing else", () => {
    expect(emailKey("  Ada@Example.COM ")).toBe("ada@example.com");
    expect(emailKey("ada@example.com")).toBe(emailKey("ADA@EXAMPLE.COM"));
    expect(emailKey("ada+1@example.com")).not.toBe(emailKey("ada@example.com"));
  });
});

describe("subscriber PATCH schema", () => {
  const version = "2026-11-22T09:14:05.123Z";
  const problems = (body: unknown) => {
    const r = subscriberPatchSchema.safeParse(body);
    return r.success ? {} : fieldErrors(r.error);
  };

  it("takes the given fields of the creation body and the version read", () => {
    expect(subscriberPatchSchema.parse({ last_name: "Byron", is_mandatory: true, updated_at: version })).toEqual({
      version: new Date(version),
      changes: { last_name: "Byron", is_mandatory: true },
    });
    expect(subscriberPatchSchema.parse({ updated_at: version })).toEqual({ version: new Date(version), changes: {} });
  });

  it("ignores the record answer's server members (id, is_duplicate, created_at)", () => {
    const r = subscriberPatchSchema.parse({ id: 9, is_duplicate: true, created_at: version, email: "a@b.co", updated_at: version });
    expect(r.changes).toEqual({ email: "a@b.co" });
  });

  it("refuses a body that is no object with its one message, never by throwing (null reached the member checks: a 500)", () => {
    for (const body of [null, undefined, 5, "text", true, [], ["updated_at"]]) {
      expect(() => subscriberPatchSchema.safeParse(body), JSON.stringify(body)).not.toThrow();
      expect(problems(body), JSON.stringify(body)).toEqual({ _: ["Send the changes as one JSON object."] });
    }
  });

  it("refuses unknown members by name, with a hint for the record answer's names", () => {
    expect(Object.keys(problems({ emial: "x", updated_at: version }))).toEqual(["emial"]);
    expect(problems({ branch_name: "Harbour", updated_at: version }).branch_name?.[0]).toMatch(/Use branch_id\./);
    expect(problems({ sheet: { name: "S" }, updated_at: version }).sheet?.[0]).toMatch(/Use sheet_name\./);
  });

  it("refuses Object.prototype's names and __proto__ by name, with no hint made of inherited members", () => {
    for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"]) {
      const body = JSON.parse(`{${JSON.stringify(name)}: {"last_name": "X"}, "updated_at": "${version}"}`);
      const found = problems(body);
      expect(Object.keys(found), name).toEqual([name]);
      expect(found[name]![0], name).toBe(`"${name}" is not a field you can change.`);
    }
  });

  it("refuses a body that is not one object", () => {
    for (const body of [null, [], "x", 5, [{ updated_at: version }]]) expect(problems(body), JSON.stringify(body)).toHaveProperty("_");
  });

  it("asks for updated_at as read", () => {
    expect(Object.keys(problems({ last_name: "X" }))).toEqual(["updated_at"]);
    for (const bad of ["yesterday", "", 1732262045000, null, "2026-11-22", "2026-02-30T09:14:05Z"]) {
      expect(Object.keys(problems({ last_name: "X", updated_at: bad })), String(bad)).toEqual(["updated_at"]);
    }
  });

  it("takes updated_at only with Z or an offset: without one it would be read in the server's zone", () => {
    for (const local of ["2026-11-22T09:14:05.123", "2026-11-22T09:14:05", "2026-11-22 09:14:05Z"]) {
      expect(problems({ last_name: "X", updated_at: local }).updated_at?.[0], local).toMatch(/with Z or an offset/);
    }
    expect(subscriberPatchSchema.parse({ updated_at: "2026-11-22T10:14:05.123+01:00" }).version).toEqual(new Date(version));
    expect(subscriberPatchSchema.parse({ updated_at: "2026-11-22T09:14:05Z" }).version).toEqual(new Date("2026-11-22T09:14:05.000Z"));
  });
});

describe("subscriber edit schema (the form's action)", () => {
  const edit = { ...valid, id: 7, version: "2026-11-22T09:14:05.123Z" };
  it("takes the version the form read, with its zone", () => {
    expect(subscriberEditSchema.parse(edit)).toMatchObject({ id: 7, version: "2026-11-22T09:14:05.123Z", last_name: "Lovelace" });
    expect(subscriberEditSchema.parse({ ...edit, version: "2026-11-22T10:14:05.123+01:00" }).version).toBe("2026-11-22T10:14:05.123+01:00");
  });
  it("refuses a version without a zone, or no time at all", () => {
    for (const version of ["2026-11-22T09:14:05.123", "yesterday", ""]) {
      const r = subscriberEditSchema.safeParse({ ...edit, version });
      expect(r.success, version).toBe(false);
      if (!r.success) expect(fieldErrors(r.error).version?.[0]).toMatch(/with Z or an offset/);
    }
  });
});
