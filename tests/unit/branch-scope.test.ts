import { describe, expect, it } from "vitest";
import { branchScope, covers, inScope, isScoped, scopeCondition } from "@/lib/auth/scope";
import { sql } from "@/lib/db/sql";

// The one decision of a user's branches (lib/auth/scope.ts) and the one predicate it writes.

describe("branchScope", () => {
  it("gives admins every branch, whatever they carry", () => {
    expect(branchScope({ role: "admin", branch_ids: [3] }).branchIds).toBeNull();
    expect(branchScope({ role: "admin", branch_ids: null }).branchIds).toBeNull();
  });

  it("gives staff their branches, sorted and once each, or every branch when null", () => {
    expect(branchScope({ role: "staff", branch_ids: [5, 2, 5] }).branchIds).toEqual([2, 5]);
    expect(branchScope({ role: "staff", branch_ids: null }).branchIds).toBeNull();
    expect(branchScope({ role: "staff", branch_ids: [] }).branchIds).toEqual([]);
  });

  it("refuses a user whose branches were never read, rather than giving them everything", () => {
    expect(() => branchScope({ role: "staff" } as never)).toThrow(/not read/);
  });

  it("cannot be changed once made", () => {
    const scope = branchScope({ role: "staff", branch_ids: [1] });
    expect(Object.isFrozen(scope) && Object.isFrozen(scope.branchIds)).toBe(true);
  });
});

describe("scopeCondition", () => {
  const column = sql`s.branch_id`;
  it("writes nothing for every branch, an equality for one, ANY for several, false for none", () => {
    expect(scopeCondition(branchScope({ role: "admin", branch_ids: null }), column)).toBeNull();
    const one = scopeCondition(branchScope({ role: "staff", branch_ids: [7] }), column)!;
    expect([one.text, one.values]).toEqual(["s.branch_id = $1", [7]]);
    const many = scopeCondition(branchScope({ role: "staff", branch_ids: [9, 7] }), column)!;
    expect([many.text, many.values]).toEqual(["s.branch_id = ANY($1::int[])", [[7, 9]]]);
    expect(scopeCondition(branchScope({ role: "staff", branch_ids: [] }), column)!.text).toBe("false");
  });

  it("keeps subscribers without a branch for unscoped users only", () => {
    const scoped = branchScope({ role: "staff", branch_ids: [1] });
    const every = branchScope({ role: "staff", branch_ids: null });
    expect([inScope(scoped, 1), inScope(scoped, 2), inScope(scoped, null)]).toEqual([true, false, false]);
    expect([inScope(every, 2), inScope(every, null)]).toEqual([true, true]);
    expect([isScoped(scoped), isScoped(every)]).toEqual([true, false]);
  });
});

describe("covers", () => {
  const of = (branch_ids: number[] | null) => branchScope({ role: "staff", branch_ids });
  it("says whether work made under one scope may be shown under another (a job's file under the user's scope now)", () => {
    expect(covers(of(null), of([1, 2]))).toBe(true);
    expect(covers(of([1, 2]), of([2]))).toBe(true);
    expect(covers(of([1, 2]), of([1, 2]))).toBe(true);
    expect(covers(of([1]), of([1, 2]))).toBe(false); // narrowed
    expect(covers(of([1]), of(null))).toBe(false); // every branch, then one
    expect(covers(of([]), of([1]))).toBe(false); // the last branch taken away
    expect(covers(of([3]), of([]))).toBe(true);
  });
});
