// `npm run bench:webhooks [-- N]`: what webhooks cost the writes that record them
// (docs/decisions/0045-webhooks.md). On a database of its own (`console_webhooks`, N subscribers,
// default 300,000, loaded by the benchmark's bulk loader and dropped after the run):
//  1. a single subscriber edit (updateSubscriber: the API's PATCH without HTTP), in alternating
//     blocks with no endpoint and with one endpoint subscribed to subscriber.updated: the median
//     and p95 of each, and their ratio (target ≤ 1.1);
//  2. a bulk change of every subscriber run as the job runs it, with an endpoint subscribed to
//     bulk_change.completed: how many webhook events it wrote (must be 1) and how long it took.
// No delivery worker runs: the outbox's cost is what is measured, not the receiver's. Writes bench/results/webhooks.md.
import fs from "node:fs";
import os from "node:os";
import pg from "pg";
import { toolEnv } from "@/tools/env";
import { benchDatabaseUrl, bulkLoad } from "@/tools/seed/bulk";
import { progressPrinter } from "./bench/progress";
import { DEFAULT_SERVER } from "./bulk-load";
import { runScript } from "./script-utils";

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
const ms = (x: number) => `${x.toFixed(2)} ms`;
const BLOCK = 50;
const BLOCKS = 8;

async function dropDatabase(url: string) {
  const admin = new pg.Client({ connectionString: benchDatabaseUrl(url, "postgres") });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${decodeURIComponent(new URL(url).pathname.slice(1))}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

runScript(async () => {
  const n = Number(process.argv[2] ?? 300_000);
  if (!Number.isInteger(n) || n < 1) throw new Error("N must be a whole number, 1 or more");
  const url = benchDatabaseUrl(toolEnv(["BENCH_DATABASE_URL"]).BENCH_DATABASE_URL ?? DEFAULT_SERVER, "console_webhooks");
  const load = await bulkLoad({ target: { kind: "postgres", url }, subscribers: n, progress: progressPrinter() });
  console.log(`› Loaded ${n} subscribers in ${load.seconds.toFixed(0)} s.`);
  try {
    await measure(n, url);
  } finally {
    const { closeConnection } = await import("@/lib/db/sql");
    await closeConnection();
    await dropDatabase(url);
  }
});

async function measure(n: number, url: string) {
  process.env.DATABASE_URL = url;
  const { connection, sql } = await import("@/lib/db/sql");
  const { branchScope } = await import("@/lib/auth/scope");
  const { findSubscriber } = await import("@/lib/subscribers/record");
  const { editableFields, updateSubscriber } = await import("@/lib/subscribers/edit");
  const { subscriberInputSchema } = await import("@/lib/subscribers/schema");
  const { runBulkChange } = await import("@/lib/subscribers/bulk");
  const every = branchScope({ role: "admin", branch_ids: null });
  const conn = await connection();
  const [admin] = await conn.query<{ id: number; email: string; name: string }>(`SELECT id, email, name FROM users WHERE role = 'admin' ORDER BY id LIMIT 1`);
  const actor = { ...admin!, role: "admin" as const, branch_ids: null };
  await conn.query(`DELETE FROM webhook_endpoints`);

  // 1. One edit, again and again, in alternating blocks: none subscribed, then one endpoint.
  const id = 1000;
  let k = 0;
  const edit = async () => {
    const current = (await findSubscriber(every, id))!;
    const input = subscriberInputSchema.parse({ ...editableFields(current), last_name: `Edit${k++}` });
    const t = performance.now();
    await updateSubscriber(every, id, input, current.updated_at, actor as never);
    return performance.now() - t;
  };
  for (let i = 0; i < 20; i++) await edit(); // warm up
  const none: number[] = [];
  const subscribed: number[] = [];
  for (let b = 0; b < BLOCKS; b++) {
    await conn.query(`DELETE FROM webhook_endpoints`);
    for (let i = 0; i < BLOCK; i++) none.push(await edit());
    await conn.query(`INSERT INTO webhook_endpoints (url, events, secret, updated_at) VALUES ('https://hooks.example.com/in', ARRAY['subscriber.updated'], 'whsec_${Buffer.alloc(32, 1).toString("base64")}', now())`);
    for (let i = 0; i < BLOCK; i++) subscribed.push(await edit());
  }
  const [events] = await conn.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_events WHERE type = 'subscriber.updated'`);
  const ratio = quantile(subscribed, 0.5) / quantile(none, 0.5);

  // 2. A bulk change of every subscriber, as its job runs it.
  await conn.query(`UPDATE webhook_endpoints SET events = ARRAY['bulk_change.completed']`);
  const before = (await conn.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_events`))[0]!.n;
  const [state] = await conn.query<{ s: string }>(`SELECT subscription_status::text AS s FROM subscribers ORDER BY id LIMIT 1`);
  const bulkId = `bench${Date.now().toString(36)}`.padEnd(22, "x").slice(0, 22);
  await conn.query(sql`INSERT INTO bulk_changes (id, user_id, target, change, total_rows)
    VALUES (${bulkId}, ${admin!.id}, ${JSON.stringify({ filters: {} })}::jsonb, ${JSON.stringify({ subscription_status: state!.s === "expired" ? "active" : "expired" })}::jsonb, ${n})`);
  const started = performance.now();
  const result = await runBulkChange(bulkId);
  const seconds = (performance.now() - started) / 1000;
  const written = await conn.query<{ type: string; n: number }>(`SELECT type, count(*)::int AS n FROM webhook_events GROUP BY type ORDER BY type`);
  const after = written.reduce((sum, r) => sum + r.n, 0);
  const [bulkEvent] = await conn.query<{ processed_rows: number }>(sql`SELECT (data->>'processed_rows')::int AS processed_rows FROM webhook_events WHERE type = 'bulk_change.completed'`);

  const lines = [
    `# Webhooks: the outbox's cost (${new Date().toISOString().slice(0, 10)})`,
    "",
    `Command: \`npm run bench:webhooks -- ${n}\` on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), PostgreSQL at ${new URL(url).host}.`,
    "",
    `## A single subscriber edit (updateSubscriber, ${BLOCKS} alternating blocks of ${BLOCK})`,
    "",
    "| endpoints subscribed | median | p95 |",
    "|---|---|---|",
    `| none | ${ms(quantile(none, 0.5))} | ${ms(quantile(none, 0.95))} |`,
    `| one (subscriber.updated) | ${ms(quantile(subscribed, 0.5))} | ${ms(quantile(subscribed, 0.95))} |`,
    "",
    `Ratio of the medians: ×${ratio.toFixed(3)} (target ≤ ×1.1). Events recorded: ${events!.n} (one per edit with the endpoint: ${BLOCKS * BLOCK}).`,
    "",
    `## A bulk change of every subscriber (${n.toLocaleString("en-GB")} rows, as its job runs it)`,
    "",
    `${"processed" in result ? result.processed.toLocaleString("en-GB") : "?"} rows in ${seconds.toFixed(1)} s; webhook events written by it: ${after - before} (bulk_change.completed: 1 expected), its processed_rows: ${bulkEvent?.processed_rows ?? "none"}.`,
    "",
  ];
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync("bench/results/webhooks.md", lines.join("\n"));
  console.log(lines.join("\n"));
}
