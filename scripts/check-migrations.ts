// `npm run db:migrations:check [-- --previous <git ref>]`: the expand-and-contract rule over
// prisma/migrations (docs/decisions/0044-expand-and-contract.md). Fails on a migration that drops,
// renames or retypes what it does not name as a contract step, and, given the previous release
// (a tag or commit), on a contract step removing something that release's code still names.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { checkMigrations, stillRead } from "../tools/migrate/expand-contract";

/** What the previous release reads the database with: its code and its Prisma schema. */
const READERS = ["app", "lib", "components", "scripts", "proxy.ts", "server.ts", "prisma/schema.prisma"];

function releaseSources(ref: string): Map<string, string> {
  const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const files = git("ls-tree", "-r", "--name-only", ref, "--", ...READERS)
    .split("\n")
    .filter((f) => /\.(ts|tsx|mjs|js|prisma|sql)$/.test(f) && !f.startsWith("lib/generated/"));
  return new Map(files.map((f) => [f, git("show", `${ref}:${f}`)]));
}

const args = process.argv.slice(2);
const at = args.indexOf("--previous");
const previous = at >= 0 ? args[at + 1] : undefined;
const results = checkMigrations(path.join(process.cwd(), "prisma", "migrations"));
const problems = results.flatMap((r) => r.problems.map((p) => `${p.migration}: ${p.why}\n    ${p.statement}`));
if (previous) {
  const sources = releaseSources(previous);
  for (const r of results) {
    for (const { object, file } of stillRead(r.removes, sources)) problems.push(`${r.name}: removes ${object}, which ${previous}'s ${file} still names: remove it one release later`);
  }
}
if (problems.length) {
  console.error(`Migrations that would break the previous release's running code:\n\n${problems.join("\n\n")}`);
  process.exit(1);
}
console.log(`${results.length} migration(s) since the rule checked${previous ? ` against ${previous}` : ""}: only additions, or contract steps named.`);
