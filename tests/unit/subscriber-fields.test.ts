import { describe, expect, it } from "vitest";
import { FIELD, fieldLabel, IMPORT_FIELDS, MERGE_FIELDS } from "@/lib/subscribers/fields";
import { SUBSCRIBER_FIELDS } from "@/lib/subscribers/filters";

// The one catalogue of subscriber fields: the lists the import, the merge and the table read from it.

describe("the subscriber field catalogue", () => {
  it("gives every field a label of its own", () => {
    const labels = Object.values(FIELD).map((f) => f.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const field of SUBSCRIBER_FIELDS) expect(fieldLabel(field)).toBe(FIELD[field].label);
  });

  it("imports and merges the fields a person enters, in the form's order", () => {
    const entered = ["first_name", "last_name", "email", "mobile", "branch_name", "country_name", "travel_date", "sheet", "subscription_status", "is_mandatory"];
    expect([...IMPORT_FIELDS]).toEqual(entered);
    expect([...MERGE_FIELDS]).toEqual(entered);
    for (const field of ["id", "is_duplicate", "created_at", "updated_at"] as const) {
      expect(FIELD[field]).toMatchObject({ edit: false, import: false, merge: false });
    }
  });

  it("reads a name that is no field as itself (an old audit entry's)", () => {
    expect(fieldLabel("shoe_size")).toBe("shoe_size");
    expect(fieldLabel("toString")).toBe("toString");
  });
});
