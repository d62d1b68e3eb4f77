import path from "node:path";

/** Where the data lives: a PostgreSQL server when DATABASE_URL names one, else embedded PGlite. */
export type DatabaseTarget =
  | { kind: "postgres"; url: string }
  | { kind: "pglite"; dir: string };

export function databaseTarget(env: NodeJS.ProcessEnv = process.env): DatabaseTarget {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new Error(`DATABASE_URL must be a postgres:// or postgresql:// URL (got "${url.split(":")[0]}:…").`);
    }
    return { kind: "postgres", url };
  }
  return { kind: "pglite", dir: path.resolve(/*turbopackIgnore: true*/ env.PGLITE_DIR?.trim() || ".data/pglite") };
}
