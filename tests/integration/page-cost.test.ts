import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import BranchesPage from "@/app/(console)/branches/page";
import ConsoleLayout from "@/app/(console)/layout";
import SubscribersPage from "@/app/(console)/subscribers/page";
import type { SessionUser } from "@/lib/auth/permissions";
import type { Database } from "@/lib/db/client";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { sql, within } from "@/lib/db/sql";
import { subscriberCountSql } from "@/lib/subscribers/queries";
import { duplicateGroupsSql } from "@/lib/subscribers/duplicate-groups";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { seedSubscribers } from "../helpers/export-data";
import { renderPage } from "../helpers/render-page";
import { branchScope } from "@/lib/auth/scope";

const EVERY = branchScope({ role: "admin", branch_ids: null });

// What a page costs the database, as the statements its render sends (caught at the driver:
// PGlite's query, or pg's Client.query for every pooled connection), on both databases.
// Issue 12, point 5: /subscribers counts its matches once, and the export panel shows that same
// total. Point 8: an admin's /branches counts no branch's subscribers (the delete dialog counts
// when it opens), so the page costs an admin what it costs staff at any number of subscribers.

const N = 120;

/** The SQL text of every statement `run` sends to `database`. */
async function statementsOf(database: Database, run: () => Promise<unknown>): Promise<string[]> {
  const texts: string[] = [];
  const record = (text: unknown) => void texts.push(typeof text === "string" ? text : String((text as { text?: unknown })?.text ?? ""));
  const targets: [object, string][] = database.pglite ? [[database.pglite, "query"], [database.pglite, "exec"]] : [[pg.Client.prototype, "query"]];
  const spies = targets.map(([target, method]) => {
    const original = (target as Record<string, (...a: unknown[]) => unknown>)[method]!;
    return vi.spyOn(target as Record<string, (...a: unknown[]) => unknown>, method).mockImplementation(function (this: unknown, ...args: unknown[]) {
      record(args[0]);
      return original.apply(this, args);
    });
  });
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return texts.map((t) => t.replace(/\s+/g, " ").trim());
}

const COUNTS = /\bcount\s*\(|\bsum\s*\(/i;

for (const kind of testDbKinds()) {
  describe(`what pages cost (${kind})`, () => {
    let database: Database;
    let users: { admin: SessionUser; staff: SessionUser };

    beforeAll(async () => {
      database = await testDatabase(kind);
      await seedSubscribers((text) => database.prisma.$executeRawUnsafe(text), N);
      users = await createUsers(database);
    });
    afterAll(async () => {
      actAs(null);
      await database?.close();
    });

    it.each(["", "?subscription_status=active", "?email=example&sort=-last_name&page=2", "?q=first1"])(
      "/subscribers%s runs one count, shared by the list and the export panel",
      async (query) => {
        actAs(users.staff);
        let html = "";
        const statements = await statementsOf(database, async () => {
          html = await renderPage(SubscribersPage, `/subscribers${query}`);
        });
        const filters = subscriberFiltersSchema.parse(Object.fromEntries(new URLSearchParams(query)));
        const count = subscriberCountSql(EVERY, filters).text.replace(/\s+/g, " ").trim();
        expect(statements.filter((s) => s === count), statements.join("\n")).toHaveLength(1);
        // Besides it, at most the duplicate groups' count of the list's link, kept per process (lib/subscribers/duplicate-count.ts).
        const groupCount = duplicateGroupsSql(EVERY, { page: 1, rule: undefined, q: undefined }).count.text.replace(/\s+/g, " ").trim();
        const groupCounts = statements.filter((s) => s === groupCount);
        expect(groupCounts.length, statements.join("\n")).toBeLessThanOrEqual(1);
        expect(statements.filter((s) => COUNTS.test(s) && !groupCounts.includes(s)), statements.join("\n")).toEqual([count]);
        // The one total is the list's and the export panel's.
        const [row] = await within(database.prisma).query<{ total: number }>(subscriberCountSql(EVERY, filters));
        const total = row!.total;
        expect(total).toBeGreaterThan(0);
        expect(html).toContain(`${total} subscribers`); // the list's summary
        expect(html).toMatch(new RegExp(`${total} subscribers( match the current filters and)? will be exported`));
      },
    );

    it("an admin's /branches reads nothing of the subscribers table, and still offers Delete on every row", async () => {
      for (const who of [users.admin, users.staff]) {
        actAs(who);
        let html = "";
        const statements = await statementsOf(database, async () => {
          html = await renderPage(BranchesPage, "/branches");
        });
        expect(statements.length).toBeGreaterThan(0);
        expect(statements.filter((s) => /\bsubscribers\b/i.test(s)), who.role).toEqual([]);
        expect(html.includes('aria-label="Delete Northgate"'), who.role).toBe(who.role === "admin");
      }
    });

    it("/branches with its header costs an admin and a scoped staff member the statements it costs staff", async () => {
      const [northgate] = await within(database.prisma).query<{ id: number; name: string }>(sql`SELECT id, name FROM branches WHERE name = 'Northgate'`);
      // A scoped user's branch names come with the session's one read (lib/auth/session.ts), as the guards see it here.
      const scoped: SessionUser = { ...users.staff, id: users.staff.id, branch_ids: [northgate!.id], branch_names: [northgate!.name] };
      const withHeader = async ({ searchParams }: { searchParams: Promise<Record<string, string>> }) => ConsoleLayout({ children: await BranchesPage({ searchParams }) });
      const cost: Record<string, { statements: number; html: string }> = {};
      for (const [name, who] of [["staff", users.staff], ["admin", users.admin], ["scoped", scoped]] as const) {
        actAs(who);
        let html = "";
        const statements = await statementsOf(database, async () => {
          html = await renderPage(withHeader, "/branches");
        });
        cost[name] = { statements: statements.length, html };
        // The Views menu's views, own and shared, are one statement (lib/views/queries.ts).
        expect(statements.filter((s) => /\bsaved_views\b/i.test(s) && !/\bsaved_view_defaults\b/i.test(s)), name).toHaveLength(1);
      }
      expect(cost.admin!.statements).toBe(cost.staff!.statements);
      expect(cost.scoped!.statements).toBe(cost.staff!.statements);
      expect(cost.scoped!.html).toMatch(/Your branches: (<!-- -->)?<bdi>Northgate<\/bdi>/);
      expect(cost.staff!.html).not.toContain("Your branches");
      // The admin's per-row delete dialogs are rendered when first opened, not closed on every row.
      expect(cost.admin!.html.includes('aria-label="Delete Northgate"')).toBe(true);
      expect(cost.admin!.html).not.toContain("Delete branch");
      expect(cost.admin!.html).not.toContain("<dialog");
    });
  });
}
