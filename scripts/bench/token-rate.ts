// What counting a token's requests in the database costs a bearer request: the token's lookup as it
// was (read only, the count in the process's memory) and as it is (the same read with the count's
// upsert in the statement), interleaved on a database of their own, one connection, then ten
// connections on one token (they queue for its row). Prints the medians and p95 in microseconds.
//
//   npx tsx --conditions=react-server scripts/bench/token-rate.ts [--requests 3000]
import { parseArgs } from "node:util";
import pg from "pg";
import { tokenLookup } from "@/lib/auth/bearer";
import { USER_BRANCH_IDS } from "@/lib/auth/scope";
import { openSql, sql, type Statement } from "@/lib/db/sql";
import { applyMigrations } from "@/tools/migrate";
import { DEFAULT_SERVER } from "../bulk-load";

const { values } = parseArgs({ options: { requests: { type: "string", default: "3000" } } });
const requests = Number(values.requests);
const NAME = "console_bench_token_rate";
const HASH = "a".repeat(64);

const before = (hash: string) =>
  sql`SELECT t.id, t.name, t.scope::text AS scope, t.expires_at, t.revoked_at, t.last_used_at,
             u.id AS user_id, u.name AS user_name, u.email, u.role::text AS role, ${USER_BRANCH_IDS}, u.active,
             u.two_factor_enabled_at IS NOT NULL AS two_factor
        FROM api_tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = ${hash}`;

const admin = new pg.Client({ connectionString: DEFAULT_SERVER });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${NAME}`);
await admin.query(`CREATE DATABASE ${NAME}`);
const url = new URL(DEFAULT_SERVER);
url.pathname = `/${NAME}`;
await applyMigrations(url.toString());
const db = openSql({ url: url.toString(), max: 10 });
await db.query(sql`INSERT INTO users (email, name, role, password_hash, updated_at) VALUES ('bench@token.rate', 'Bench', 'staff', 'x', now())`);
await db.query(sql`INSERT INTO api_tokens (user_id, name, scope, token_hash, expires_at) SELECT id, 'bench', 'read', ${HASH}, now() + interval '1 day' FROM users`);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;
async function timed(statement: Statement): Promise<number> {
  const start = process.hrtime.bigint();
  await db.query(statement);
  return Number(process.hrtime.bigint() - start) / 1000;
}

const runs: Record<string, number[]> = { before: [], after: [] };
for (let i = 0; i < requests / 10; i++) await timed(tokenLookup(HASH)); // warm up
for (let i = 0; i < requests; i++) {
  runs.before!.push(await timed(before(HASH)));
  runs.after!.push(await timed(tokenLookup(HASH)));
}
for (const [name, xs] of Object.entries(runs)) console.log(`1 connection, ${name}: median ${quantile(xs, 0.5).toFixed(0)} µs, p95 ${quantile(xs, 0.95).toFixed(0)} µs`);

for (const [name, statement] of [["before", before], ["after", tokenLookup]] as const) {
  const xs: number[] = [];
  await Promise.all(Array.from({ length: 10 }, async () => {
    for (let i = 0; i < requests / 10; i++) xs.push(await timed(statement(HASH)));
  }));
  console.log(`10 connections, ${name}: median ${quantile(xs, 0.5).toFixed(0)} µs, p95 ${quantile(xs, 0.95).toFixed(0)} µs`);
}

await db.close();
await admin.query(`DROP DATABASE ${NAME}`);
await admin.end();
