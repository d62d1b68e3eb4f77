import { readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The rule that keeps every write in transaction() (docs/decisions/0038-one-transaction-path.md):
// planted writes, linted with the project's config as if they were in lib/, are refused; the same
// writes through a transaction's tx pass.

const root = path.resolve(__dirname, "../..");
const fixture = (name: string) => readFileSync(path.join(root, "tests/fixtures/lint", name), "utf8");

async function lint(name: string, file = "lib/subscribers/planted.ts") {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(fixture(name), { filePath: path.join(root, file) });
  return result!.messages;
}

describe("console/writes-in-transaction", () => {
  it("refuses each planted write outside a transaction's tx, raw SQL and Prisma alike", async () => {
    const refused = (await lint("planted-writes.ts")).filter((m) => m.ruleId === "console/writes-in-transaction");
    // Sent alone, on the connection, as text, by any Queryable, in a WITH, in lower case; a model's write; beside the work, built aside,
    // the client inside the work; in the work, a statement the rule cannot read sent by query(), a write returned from it, and one handed on;
    // a model's delegate kept aside and one destructured.
    expect(refused.map((m) => m.line)).toEqual([9, 11, 13, 15, 17, 19, 21, 26, 30, 34, 36, 44, 51, 56, 62, 67]);
    expect(refused.every((m) => m.severity === 2)).toBe(true);
    expect(refused[0]!.message).toContain("transaction()");
    expect(refused[7]!.message).toContain("every statement goes by its tx");
    expect(refused[11]!.message).toContain("every statement goes by its tx");
    expect(refused[12]!.message).toContain("sent there by its tx");
    expect(refused[13]!.message).toContain("sent there by its tx");
    expect(refused[14]!.message).toContain("delegate is called where it is reached");
    expect(refused[15]!.message).toContain("delegate is called where it is reached");
  }, 60_000);

  it("lets the same writes through a transaction's tx pass, and reads and words alone", async () => {
    const messages = await lint("written-in-transaction.ts");
    expect(messages.filter((m) => m.ruleId === "console/writes-in-transaction")).toEqual([]);
    expect(messages.filter((m) => m.severity === 2)).toEqual([]);
  }, 60_000);

  it("leaves lib/db, which defines the path, and the tests' own seeding alone", async () => {
    const refusals = async (file: string) => (await lint("planted-writes.ts", file)).filter((m) => m.ruleId === "console/writes-in-transaction").length;
    expect(await refusals("lib/db/planted.ts")).toBe(0);
    expect(await refusals("tests/integration/planted.test.ts")).toBe(0);
    expect(await refusals("app/api/v1/planted/route.ts")).toBe(16);
  }, 60_000);
});
