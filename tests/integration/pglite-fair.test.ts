import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PGlite } from "@electric-sql/pglite";
import { fairPGlite } from "@/lib/db/pglite-fair";
import { openPGlite } from "@/lib/db/pglite";
import { withHeavyUser } from "@/lib/db/scope";

// Issue 19 on the embedded database: PGlite runs one statement at a time and cannot stop one, so
// a user's heavy lists queued there made every other request wait for all of them. Heavy
// statements now go to PGlite one at a time, users in turn; other statements go at once.

describe("PGlite's statements, shared fairly", () => {
  let raw: PGlite & { release: () => void };
  let db: PGlite;

  beforeAll(async () => {
    raw = await openPGlite();
    db = fairPGlite(raw);
  });
  afterAll(async () => {
    await raw?.close();
  });

  /** Runs the statements at once and gives the order in which they were answered. */
  async function order(statements: { name: string; user?: number }[]): Promise<string[]> {
    const done: string[] = [];
    await Promise.all(
      statements.map(({ name, user }) => {
        const run = () => db.query("SELECT pg_sleep(0.02)").then(() => void done.push(name));
        return user === undefined ? run() : withHeavyUser(user, run);
      }),
    );
    return done;
  }

  it("answers another request after at most one of a user's heavy statements", async () => {
    const burst = Array.from({ length: 10 }, (_, i) => ({ name: `staff ${i}`, user: 1 }));
    const done = await order([...burst, { name: "admin's branches" }]);
    expect(done.indexOf("admin's branches")).toBeLessThanOrEqual(1);
  });

  it("takes users' heavy statements in turn", async () => {
    const staff = Array.from({ length: 10 }, (_, i) => ({ name: `staff ${i}`, user: 1 }));
    const done = await order([...staff, { name: "admin's list", user: 2 }]);
    expect(done.indexOf("admin's list")).toBeLessThanOrEqual(2);
    expect(done.filter((n) => n.startsWith("staff"))).toEqual(staff.map((s) => s.name)); // each user's in order
  });

  it("passes everything else through: results, errors, transactions", async () => {
    expect((await withHeavyUser(3, () => db.query<{ n: number }>("SELECT 1 AS n"))).rows).toEqual([{ n: 1 }]);
    await expect(withHeavyUser(3, () => db.query("SELECT * FROM no_such_table"))).rejects.toThrow(/no_such_table/);
    expect(await db.transaction(async (tx) => (await tx.query<{ n: number }>("SELECT 2 AS n")).rows[0]!.n)).toBe(2);
    expect((await db.query<{ n: number }>("SELECT 3 AS n")).rows).toEqual([{ n: 3 }]);
  });
});
