import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BUILD_INPUTS } from "../build-id.mjs";
import { prepareBuildFolder } from "../bench/build";

// The rehearsal's two releases: today's sources ("old"), and the same with a change that follows
// expand and contract ("new"): a migration adds branches.code with a backfill, and the API's
// branch answer reads it (null for a branch the old release wrote during the roll). Both are built
// with one NEXT_SERVER_ACTIONS_ENCRYPTION_KEY, as docs/deployment.md says.

/** What a release folder holds: the build's inputs, and what runs beside it (worker, migrations). */
const RELEASE_INPUTS = [...BUILD_INPUTS, "scripts", "tools", "prisma", "prisma.config.ts"];

export const CHANGE_MIGRATION = "20991231000000_rehearsal_branch_code";

/** Each edit of the change: a file, what it finds, what it puts instead (refused when not found). */
const CHANGE: { file: string; find: string; put: string }[] = [
  {
    file: "lib/branches/queries.ts",
    find: "export async function getBranch(scope: BranchScope, id: number): Promise<BranchRow> {\n  const [branch] = await query<BranchRow>(sql`SELECT b.id, b.name, b.created_at, b.updated_at ${branchFrom(scope, { id })}`);",
    put: "export async function getBranch(scope: BranchScope, id: number): Promise<BranchRow & { code: string | null }> {\n  const [branch] = await query<BranchRow & { code: string | null }>(sql`SELECT b.id, b.name, b.created_at, b.updated_at, b.code ${branchFrom(scope, { id })}`);",
  },
  {
    file: "app/api/v1/branches/[id]/route.ts",
    find: "  return json(serializeBranch(await getBranch(user.scope, await branchId(context))));",
    put: "  const branch = await getBranch(user.scope, await branchId(context));\n  return json({ ...serializeBranch(branch), code: branch.code });",
  },
];

const MIGRATION_SQL = `-- Expand: a column the previous release does not know, filled for the rows there are.
ALTER TABLE "branches" ADD COLUMN "code" TEXT;
UPDATE "branches" SET "code" = upper(left(regexp_replace("name", '[^A-Za-z0-9]', '', 'g'), 3)) WHERE "code" IS NULL;
`;

export function prepareRelease(root: string, dir: string, withChange: boolean) {
  prepareBuildFolder(root, dir, { inputs: RELEASE_INPUTS, log: () => {} });
  if (!withChange) return;
  for (const edit of CHANGE) {
    const file = path.join(dir, edit.file);
    const text = fs.readFileSync(file, "utf8");
    if (!text.includes(edit.find)) throw new Error(`The rehearsal's change no longer applies to ${edit.file}: update scripts/rehearse-upgrade/builds.ts.`);
    fs.writeFileSync(file, text.replace(edit.find, edit.put));
  }
  const migration = path.join(dir, "prisma", "migrations", CHANGE_MIGRATION);
  fs.mkdirSync(migration, { recursive: true });
  fs.writeFileSync(path.join(migration, "migration.sql"), MIGRATION_SQL);
}

export function nextBuild(dir: string, key: string, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = fs.openSync(logFile, "w");
    const child = spawn(process.execPath, [path.join(dir, "node_modules/next/dist/bin/next"), "build"], {
      cwd: dir,
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: key },
      stdio: ["ignore", out, out],
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build in ${dir} failed (${code}): see ${logFile}`))));
  });
}

/** The previous build's static files kept beside the new build's, for pages still open on it. */
export function keepPreviousStatic(previous: string, next: string) {
  fs.cpSync(path.join(previous, ".next", "static"), path.join(next, ".next", "static"), { recursive: true, force: false, errorOnExist: false });
}
