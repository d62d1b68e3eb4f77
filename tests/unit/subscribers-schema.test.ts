import { describe, expect, it } from "vitest";
import { emailKey, subscriberFormSchema, subscriberInputSchema } from "@/lib/subscribers/schema";

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
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
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
    if (!r.success) expect(r.error.issues[0]?.message).toMatch(/country code/);
  });
});

describe("emailKey (the duplicate rule's 'same email')", () => {
  it("ignores case and surrounding spaces, nothing else", () => {
    expect(emailKey("  Ada@Example.COM ")).toBe("ada@example.com");
    expect(emailKey("ada@example.com")).toBe(emailKey("ADA@EXAMPLE.COM"));
    expect(emailKey("ada+1@example.com")).not.toBe(emailKey("ada@example.com"));
  });
});
