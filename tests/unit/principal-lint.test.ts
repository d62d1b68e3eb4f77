import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The rule that keeps the session read once, into the request's principal (docs/decisions/0040-one-principal.md):
// outside lib/auth, nothing imports the session module; pages and lib ask the guards.

const root = path.resolve(__dirname, "../..");

async function refusals(text: string, file: string) {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports");
}

const READS_THE_SESSION = `import { currentSession } from "@/lib/auth/session";\nexport const who = async () => (await currentSession())?.principal.user;\n`;
const ASKS_THE_GUARDS = `import { currentPrincipal } from "@/lib/auth/guards";\nexport const who = async () => (await currentPrincipal())?.user;\n`;

describe("one principal, by lint", () => {
  it("refuses the session module beside the guards in lib/, app/ and components/", async () => {
    for (const file of ["lib/health/planted.ts", "lib/i18n/planted.ts", "app/(console)/planted.ts", "components/planted.tsx"]) {
      const refused = await refusals(READS_THE_SESSION, file);
      expect(refused, file).toHaveLength(1);
      expect(refused[0]!.message).toContain("lib/auth/guards.ts");
    }
  }, 60_000);

  it("lets lib/auth, which makes the principal, read it, and everyone ask the guards", async () => {
    expect(await refusals(READS_THE_SESSION, "lib/auth/planted.ts")).toEqual([]);
    for (const file of ["lib/health/planted.ts", "app/(console)/planted.ts"]) expect(await refusals(ASKS_THE_GUARDS, file)).toEqual([]);
  }, 60_000);
});
