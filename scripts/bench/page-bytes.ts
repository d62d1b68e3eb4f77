// What a signed-in page's HTML is made of, per build: the whole document, the RSC payload (the
// inline `self.__next_f.push` scripts React hydrates from), the other inline scripts, and the
// markup outside scripts; each uncompressed and gzipped (zlib level 6). With `--save DIR`, every
// document is written to DIR/<build>-<path>.html for a diff.
//
//   npx tsx --conditions=react-server scripts/bench/page-bytes.ts [--as admin|staff]
//       [--paths /branches,/subscribers] [--save DIR] [--database console_bench] DIR…
//
// DIR: a folder holding a production build, as for scripts/bench/ab.ts. Runs on the PostgreSQL
// bench database (`npm run db:bulk`).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { parseArgs } from "node:util";
import { openDatabase } from "@/lib/db/client";
import { BENCH_USERS, resetBenchPassword } from "@/tools/seed/bulk";
import { bulkTarget } from "../bulk-load";
import { signIn, startServer } from "./server";

const { values: args, positionals: dirs } = parseArgs({
  allowPositionals: true,
  options: {
    as: { type: "string", default: "admin" },
    paths: { type: "string", default: "/branches,/subscribers" },
    save: { type: "string" },
    database: { type: "string" },
  },
});
if (dirs.length === 0) throw new Error("Name at least one folder holding a production build.");

const gzip = (s: string) => zlib.gzipSync(Buffer.from(s), { level: 6 }).length;
const size = (s: string) => `${(Buffer.byteLength(s) / 1000).toFixed(1)} kB (${(gzip(s) / 1000).toFixed(1)} gz)`;

/** The document split into the RSC payload's scripts, the other inline scripts and the rest. */
export function split(html: string) {
  let payload = "";
  let scripts = "";
  const markup = html.replace(/<script\b[^>]*>([\s\S]*?)<\/script>/g, (whole, body: string) => {
    if (body.startsWith("self.__next_f.push")) payload += whole;
    else scripts += whole;
    return "";
  });
  return { payload, scripts, markup };
}

const benchUser = BENCH_USERS.find((u) => u.role === args.as);
if (!benchUser) throw new Error(`--as: admin or staff, not ${args.as}`);
const target = bulkTarget({ subscribers: 1_000_000, database: args.database });
if (target.kind !== "postgres") throw new Error("Runs on the PostgreSQL bench database.");
const database = await openDatabase(target);
const password = await resetBenchPassword(database, benchUser.email);
await database.close();

const rows: string[] = ["| build | path | HTML | RSC payload | other inline scripts | markup outside scripts |", "|---|---|--:|--:|--:|--:|"];
for (const dir of dirs) {
  const server = await startServer(dir, { DATABASE_URL: target.url, DATABASE_POOL_SIZE: "4", WEB_CONCURRENCY: "1" });
  try {
    const cookie = await signIn(server.url, benchUser.email, password);
    for (const p of args.paths!.split(",")) {
      // The second answer: the first may carry a process's one-time work.
      await fetch(`${server.url}${p}`, { headers: { cookie } }).then((r) => r.arrayBuffer());
      const r = await fetch(`${server.url}${p}`, { headers: { cookie, "accept-encoding": "identity" } });
      if (!r.ok) throw new Error(`${p} answered ${r.status}`);
      const html = await r.text();
      const { payload, scripts, markup } = split(html);
      rows.push(`| ${path.basename(dir)} | \`${p}\` | ${size(html)} | ${size(payload)} | ${size(scripts)} | ${size(markup)} |`);
      if (args.save) {
        fs.mkdirSync(args.save, { recursive: true });
        fs.writeFileSync(path.join(args.save, `${path.basename(dir)}-${p.replace(/\W+/g, "_")}.html`), html);
      }
    }
  } finally {
    await server.stop();
  }
}
console.log(rows.join("\n"));
