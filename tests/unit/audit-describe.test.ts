import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { AUDIT_ACTION_OPTIONS, AUDIT_GROUPS, AUDIT_TEXT, auditSentence, describeAudit } from "@/lib/audit/describe";

// The audit log in words: a sentence and a readable filter name for every action.

const entry = (action: string, over: Partial<Parameters<typeof describeAudit>[0]> = {}) => ({ action, entity: null, entity_id: null, before: null, after: null, ...over });

describe("the audit's words", () => {
  it("name every action, grouped, as a sentence with no code or JSON in it", () => {
    expect(Object.keys(AUDIT_TEXT).toSorted()).toEqual([...AUDIT_ACTIONS].toSorted());
    for (const action of AUDIT_ACTIONS) {
      const sentence = auditSentence(entry(action, { entity: "subscriber", entity_id: "7" }));
      expect(sentence, action).toMatch(/^[A-Z][^{}]*[a-z0-9]$/);
      expect(sentence, action).not.toMatch(/undefined|NaN|null|\[object|\./);
    }
  });

  it("offer the filter readable names in areas, the raw codes as values", () => {
    expect(AUDIT_ACTION_OPTIONS.map((o) => o.value).toSorted()).toEqual([...AUDIT_ACTIONS].toSorted());
    expect(new Set(AUDIT_ACTION_OPTIONS.map((o) => o.group))).toEqual(new Set(AUDIT_GROUPS));
    expect(AUDIT_ACTION_OPTIONS).toContainEqual({ value: "subscriber.update", label: "Subscriber changed", group: "Subscribers" });
    // One run per group: an <optgroup> each.
    const runs = AUDIT_ACTION_OPTIONS.map((o) => o.group).filter((g, i, all) => g !== all[i - 1]);
    expect(runs).toEqual([...AUDIT_GROUPS]);
  });

  it("say which fields of whom an edit changed, with the record's link and its field-by-field change", () => {
    const before = { id: 7, first_name: "Gregory", last_name: "Kunze", subscription_status: "pending", updated_at: "a" };
    const after = { ...before, last_name: "Kunze-Meyer", subscription_status: "active", updated_at: "b", duplicates_reevaluated: [3] };
    const e = entry("subscriber.update", { entity: "subscriber", entity_id: "7", before, after });
    expect(auditSentence(e)).toBe("Changed last name and status of Gregory Kunze-Meyer");
    expect(describeAudit(e)).toMatchObject({ record: { label: "Gregory Kunze-Meyer", href: "/subscribers/7" }, diff: { fields: ["last_name", "subscription_status"], before, after }, details: [] });
  });

  it("link a bulk change, name its new values and count, and name gone records without a link", () => {
    const bulk = describeAudit(entry("subscriber.bulk_change", { entity: "bulk_change", entity_id: "abc", after: { ids: [1, 2], change: { is_mandatory: true }, count: 2 } }));
    expect(bulk).toMatchObject({ text: "Changed mandatory of 2 subscribers in {record}", record: { label: "a bulk change", href: "/subscribers/bulk/abc" }, diff: { fields: ["is_mandatory"], before: null, after: { is_mandatory: true } } });
    expect(auditSentence(entry("subscriber.bulk_change", { entity: "bulk_change", entity_id: "x", after: { change: { delete: true }, count: 1 } }))).toBe("Moved 1 subscriber to the trash in a bulk change");
    expect(describeAudit(entry("subscriber.erase", { entity: "subscriber", entity_id: "9", after: { id: 9, erased: true } })).record).toEqual({ label: "subscriber #9", href: null });
    expect(auditSentence(entry("user.role_change", { entity: "user", entity_id: "2", entity_name: "Vera", before: { role: "staff" }, after: { role: "admin" } }))).toBe("Changed the role of Vera");
  });

  it("list what else an entry holds as words, not JSON", () => {
    const denied = describeAudit(entry("authz.denied", { after: { path: "/audit", roles: ["admin"], filters: { status: "active" } } }));
    expect(denied.details).toEqual([["path", "/audit"], ["roles", "admin"], ["filters", "status: active"]]);
  });
});
