// `npm run db:bulk -- --subscribers 1000000`: a database of its own full of realistic subscribers,
// for benchmarks (tools/seed/bulk.ts says how and why).
//
//   --subscribers N   how many (default 1,000,000)
//   --database NAME   on the PostgreSQL server of DATABASE_URL (or postgres://postgres@127.0.0.1:5432),
//                     default console_bench; created by the loader, refused if someone else's
//   --embedded        on PGlite instead, in --dir (default $TMPDIR/console-bench/pglite-N)
//
// It never writes into the app's own database (DATABASE_URL's database, .data/pglite): the bench
// users it creates have random passwords, but the data is fake.
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { config } from "@/lib/config";
import { benchDatabaseUrl, bulkLoad } from "@/tools/seed/bulk";
import type { DatabaseTarget } from "@/lib/db/config";
import { progressPrinter } from "./bench/progress";
import { runScript } from "./script-utils";

export const DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres";

export function bulkTarget(o: { embedded?: boolean; dir?: string; database?: string; subscribers: number }): DatabaseTarget {
  const { PGLITE_DIR, DATABASE_URL } = config();
  if (o.embedded) {
    const dir = path.resolve(o.dir ?? path.join(os.tmpdir(), "console-bench", `pglite-${o.subscribers}`));
    if (dir === path.resolve(".data/pglite") || dir === PGLITE_DIR) {
      throw new Error("Refusing to bulk-load the app's own embedded database: give --dir a folder of its own.");
    }
    return { kind: "pglite", dir };
  }
  const server = DATABASE_URL ?? DEFAULT_SERVER;
  const url = benchDatabaseUrl(server, o.database ?? "console_bench");
  if (DATABASE_URL && new URL(url).pathname === new URL(DATABASE_URL).pathname) {
    throw new Error("Refusing to bulk-load DATABASE_URL's own database: give --database a name of its own.");
  }
  return { kind: "postgres", url };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]).endsWith(path.join("scripts", "bulk-load.ts"));
if (isMain) {
  runScript(async () => {
    const { values } = parseArgs({
      options: {
        subscribers: { type: "string", default: "1000000" },
        database: { type: "string" },
        embedded: { type: "boolean", default: false },
        dir: { type: "string" },
        seed: { type: "string" },
      },
    });
    const subscribers = Number(values.subscribers);
    if (!Number.isInteger(subscribers) || subscribers < 1) throw new Error("--subscribers must be a whole number, 1 or more");
    const target = bulkTarget({ ...values, subscribers });
    console.log(`› Bulk load: ${subscribers.toLocaleString("en-GB")} subscribers into ${target.kind === "postgres" ? target.url : target.dir}`);
    const result = await bulkLoad({
      target,
      subscribers,
      seed: values.seed ? Number(values.seed) : undefined,
      progress: progressPrinter(),
    });
    if (!result.loaded) {
      console.log("› Already loaded with that many subscribers: nothing to do.");
      return;
    }
    const phases = Object.entries(result.phases)
      .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
      .join(", ");
    console.log(`› Loaded ${subscribers.toLocaleString("en-GB")} subscribers in ${result.seconds.toFixed(1)} s (${phases}).`);
  });
}
