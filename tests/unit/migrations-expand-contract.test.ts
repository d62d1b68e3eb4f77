import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkMigration, checkMigrations, stillRead } from "@/tools/migrate/expand-contract";

// The expand-and-contract rule (docs/decisions/0044-expand-and-contract.md): a migration that
// would break the previous release's running code is refused unless it is a contract step naming
// what it removes, and a contract step is refused while that release's code still names it.

const whys = (sql: string) => checkMigration("20270101000000_x", sql).problems.map((p) => p.why);

describe("expand and contract over the migrations", () => {
  it("passes the project's own migrations", () => {
    const results = checkMigrations(path.join(process.cwd(), "prisma", "migrations"));
    expect(results.flatMap((r) => r.problems)).toEqual([]);
  });

  it("accepts additions: a column with a default or nullable, a backfill, a new table and its indexes, a concurrent index alone", () => {
    expect(whys(`ALTER TABLE "subscribers" ADD COLUMN "nickname" TEXT;\nUPDATE subscribers SET nickname = first_name;`)).toEqual([]);
    expect(whys(`ALTER TABLE subscribers ADD COLUMN score INTEGER NOT NULL DEFAULT 0;`)).toEqual([]);
    expect(whys(`CREATE TABLE "notes" ("id" SERIAL PRIMARY KEY, "body" TEXT NOT NULL);\nCREATE INDEX "notes_body_idx" ON "notes"("body");\nALTER TABLE notes DROP COLUMN body;`)).toEqual([]);
    expect(whys(`CREATE INDEX CONCURRENTLY IF NOT EXISTS "subscribers_nickname_idx" ON "subscribers"("nickname");`)).toEqual([]);
    // A word in a comment or a string is no statement.
    expect(whys(`-- we do not DROP COLUMN anything\nCOMMENT ON TABLE subscribers IS 'DROP TABLE subscribers';`)).toEqual([]);
  });

  it("refuses what breaks the previous release: drops, renames, type changes, NOT NULL, blocking indexes", () => {
    expect(whys(`ALTER TABLE "subscribers" DROP COLUMN "notes";`)[0]).toMatch(/drops the column subscribers\.notes.*contract: subscribers\.notes/);
    expect(whys(`DROP TABLE IF EXISTS "saved_views";`)[0]).toMatch(/drops the table saved_views/);
    expect(whys(`ALTER TABLE subscribers RENAME COLUMN notes TO remarks;`)[0]).toMatch(/renames the column subscribers\.notes/);
    expect(whys(`ALTER TABLE branches RENAME TO offices;`)[0]).toMatch(/renames the table branches/);
    expect(whys(`ALTER TABLE subscribers ALTER COLUMN notes TYPE VARCHAR(20);`)[0]).toMatch(/changes the type of subscribers\.notes/);
    expect(whys(`ALTER TABLE subscribers ALTER COLUMN notes SET NOT NULL;`)[0]).toMatch(/NOT NULL.*previous release/);
    expect(whys(`ALTER TABLE subscribers ADD COLUMN code TEXT NOT NULL;`)[0]).toMatch(/without a default/);
    expect(whys(`CREATE INDEX "subscribers_notes_idx" ON "subscribers"("notes");`)[0]).toMatch(/without CONCURRENTLY/);
    expect(whys(`ALTER TABLE a ADD COLUMN b TEXT;\nCREATE INDEX CONCURRENTLY a_b_idx ON a(b);`)[0]).toMatch(/alone in its migration/);
  });

  it("accepts a contract step for what it names, and only that", () => {
    const step = `-- contract: subscribers.notes\nALTER TABLE subscribers DROP COLUMN notes, DROP COLUMN remarks;`;
    const { problems, removes } = checkMigration("20270101000000_contract", step);
    expect(removes).toEqual(["subscribers.notes", "subscribers.remarks"]);
    expect(problems.map((p) => p.why)).toEqual([expect.stringMatching(/subscribers\.remarks/)]);
  });

  it("finds a removed object the previous release's sources still name", () => {
    const sources = new Map([
      ["lib/subscribers/read.ts", "SELECT id, first_name, notes FROM subscriber_source"],
      ["prisma/schema.prisma", "model Subscriber {\n  remarks String?\n}"],
    ]);
    expect(stillRead(["subscribers.notes", "subscribers.remarks", "subscribers.gone"], sources)).toEqual([
      { object: "subscribers.notes", file: "lib/subscribers/read.ts" },
      { object: "subscribers.remarks", file: "prisma/schema.prisma" },
    ]);
  });
});
