import fs from "node:fs";
import pg from "pg";

// The statements of each benchmark scenario (written by `npm run bench` to FLOOR_STATEMENTS),
// run as the console runs them: the session's user first, then the rest at once, on a pool of
// the console's size. Nothing else: no session cookie, proxy, validation or ORM.

type Statement = { text: string; values: unknown[] };
type Request = { first: Statement; then: Statement[] };
type Statements = Record<string, { api: Request; html: Request }>;

type Holder = { __floor?: { statements: Statements; pool: pg.Pool } };

function floor() {
  const holder = globalThis as Holder;
  holder.__floor ??= {
    statements: JSON.parse(fs.readFileSync(process.env.FLOOR_STATEMENTS!, "utf8")) as Statements,
    pool: new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.FLOOR_POOL_SIZE ?? 10) }),
  };
  return holder.__floor;
}

/** The scenario's rows (as objects) and total, or null for an unknown scenario. */
export async function runScenario(id: string, target: "api" | "html") {
  const { statements, pool } = floor();
  const request = statements[id]?.[target];
  if (!request) return null;
  await pool.query(request.first.text, request.first.values);
  const [rows, count] = await Promise.all(request.then.map((s) => pool.query(s.text, s.values)));
  return { rows: rows!.rows as Record<string, unknown>[], total: Number(count!.rows[0]?.total ?? 0) };
}
