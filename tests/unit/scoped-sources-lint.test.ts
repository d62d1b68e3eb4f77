import { readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The rule that makes the scoped sources the only way to subscribers and branches
// (docs/decisions/0037-scoped-sources.md): planted queries, linted with the project's config as if
// they were in lib/, are refused; the same reads through the sources pass.

const root = path.resolve(__dirname, "../..");
const fixture = (name: string) => readFileSync(path.join(root, "tests/fixtures/lint", name), "utf8");

async function lintAsLib(name: string) {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(fixture(name), { filePath: path.join(root, "lib/subscribers/planted.ts") });
  return result!.messages;
}

describe("console/scoped-sources", () => {
  it("refuses each planted query on the bare tables, raw SQL and Prisma alike", async () => {
    const messages = await lintAsLib("planted-subscriber-query.ts");
    const refused = messages.filter((m) => m.ruleId === "console/scoped-sources");
    // Quoted and schema-qualified names, ONLY, USING, comma joins, computed names, delegates kept aside and handed on,
    // a table named by a value in text, and fragments that start with the table or list it, too.
    expect(refused.map((m) => m.line)).toEqual([7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 36, 41, 46, 48, 50, 52, 54, 56]);
    expect(refused.every((m) => m.severity === 2)).toBe(true);
    expect(refused[0]!.message).toContain("subscribersOf(scope)");
    expect(refused[6]!.message).toContain("subscriber.findMany");
    expect(refused[13]!.message).toContain("branch.findMany");
    expect(refused[15]!.message).toContain("delegate kept aside");
    expect(refused[16]!.message).toContain("handed on");
    expect(refused[17]!.message).toContain("table named by a value");
    expect(refused[18]!.message).toContain("table named by a value");
    expect(refused[19]!.message).toContain("subscribersOf(scope)");
    expect(refused[21]!.message).toContain("table named by a value");
  }, 60_000);

  it("lets the same reads through the scoped sources pass", async () => {
    const messages = await lintAsLib("sourced-subscriber-query.ts");
    expect(messages.filter((m) => m.ruleId === "console/scoped-sources")).toEqual([]);
    expect(messages.filter((m) => m.severity === 2)).toEqual([]);
  }, 60_000);

  it("allows the bare tables only in the named files", async () => {
    const eslint = new ESLint({ cwd: root });
    const refusals = async (file: string) =>
      (await eslint.lintText(fixture("planted-subscriber-query.ts"), { filePath: path.join(root, file) }))[0]!.messages.filter((m) => m.ruleId === "console/scoped-sources").length;
    expect(await refusals("lib/subscribers/duplicates.ts")).toBe(0);
    expect(await refusals("lib/trash/subscribers.ts")).toBe(0);
    expect(await refusals("lib/trash/queries.ts")).toBe(22);
    expect(await refusals("app/api/v1/subscribers/route.ts")).toBe(22);
  }, 60_000);
});
