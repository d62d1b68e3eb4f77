// The JavaScript a page downloads (page-weight.ts's figure, the one `npm run bench` reports) for
// each given production build, without the bench's database: each build is served in turn on one
// throwaway demo database (PGlite, prepared as `npm start` prepares it) and asked by the demo
// staff member. Prints the total and each script, gzipped at zlib level 6 and uncompressed.
//
//   npx tsx --conditions=react-server scripts/bench/weight.ts [--path /subscribers] DIR…
//
// DIR: a folder holding a production build (`.next`) of the console with its node_modules, as for
// ab.ts (this worktree itself, after `npx next build`, is one).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { DEMO_USERS } from "@/tools/seed/demo";
import { kB, pageWeight } from "./page-weight";
import { signIn, startServer } from "./server";

const { values: args, positionals: dirs } = parseArgs({
  allowPositionals: true,
  options: { path: { type: "string", default: "/subscribers" } },
});
if (dirs.length === 0) throw new Error("Name at least one folder holding a production build.");

const root = path.resolve(import.meta.dirname, "../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "console-weight-"));
const env = { DATABASE_URL: "", PGLITE_DIR: path.join(tmp, "pglite"), LOG_LEVEL: "warn" };
const staff = DEMO_USERS.find((u) => u.role === "staff")!;
try {
  const prep = spawnSync(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/prepare-db.ts"], { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (prep.status !== 0) throw new Error("Preparing the demo database failed.");
  // One build at a time: a PGlite folder is opened by one process at a time.
  for (const dir of dirs.map((d) => path.resolve(d))) {
    const server = await startServer(dir, env);
    try {
      const w = await pageWeight(server.url, args.path, await signIn(server.url, staff.email, staff.password));
      console.log(`${dir}: ${args.path} JavaScript ${kB(w.jsGzip)} gzipped (${kB(w.jsBytes)} uncompressed, ${w.scripts.length} files); HTML ${kB(w.htmlGzip)} gzipped (${kB(w.htmlBytes)})`);
      for (const s of w.scripts) console.log(`  ${kB(s.gzip).padStart(9)} ${kB(s.bytes).padStart(9)}  ${s.src}`);
    } finally {
      await server.stop();
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
