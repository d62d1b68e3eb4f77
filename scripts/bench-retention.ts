// `npm run bench:retention -- --database NAME --after DAYS [--unchanged DAYS] [--run [--batch ROWS]]`: retention
// (lib/people/retention.ts) on a loaded database (the bench's million rows). Without --run: the
// dry run only (counts per branch; writes nothing, safe on the loaded data). With --run: the
// scheduled job's two runs (the first reports, the second erases) on that database, which must be
// a copy made for it (`createdb -T console_bench console_retention`), while another connection
// keeps creating subscribers and editing one that retention leaves alone: what to read is how
// long that connection ever waited (the job's batches hold their rows' locks only, briefly).
import { parseArgs } from "node:util";
import pg from "pg";
import { runScript } from "./script-utils";

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

runScript(async () => {
  const { values } = parseArgs({ options: { database: { type: "string" }, after: { type: "string" }, unchanged: { type: "string", default: "30" }, run: { type: "boolean", default: false }, batch: { type: "string" }, alone: { type: "boolean", default: false } } });
  if (!values.database || !values.after) throw new Error("--database NAME and --after DAYS are required.");
  const url = `postgres://postgres@127.0.0.1:5432/${values.database}`;
  process.env.DATABASE_URL = url;
  const settings = { erase_after_days: Number(values.after), unchanged_days: Number(values.unchanged) };
  const { retentionDryRun, runRetention } = await import("@/lib/people/retention");
  const { closeConnection } = await import("@/lib/db/sql");
  let heapPeak = 0;
  const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 50);
  const now = new Date();

  let t = performance.now();
  const dry = await retentionDryRun(settings, now);
  const dryMs = performance.now() - t;
  console.log(`dry run: ${dry.total} subscribers in ${dry.branches.length} branch groups, ${ms(dryMs)}`);
  if (!values.run) {
    clearInterval(sampler);
    console.log(`heap peak ${mb(heapPeak)}, max RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
    await closeConnection();
    return;
  }

  const probe = new pg.Client({ connectionString: url });
  await probe.connect();
  const [kept] = (await probe.query<{ id: number }>(`SELECT id FROM subscribers WHERE travel_date IS NULL OR travel_date > now() ORDER BY id LIMIT 1`)).rows;
  const waits: number[] = [];
  // --alone: no other writer (to tell the job's own time from waits on the other connection).
  let running = !values.alone;
  let k = 0;
  let deadlocks = 0;
  const probing = (async () => {
    while (running) {
      k++;
      const start = performance.now();
      // A creation and an edit, each its own transaction as in the app, run again when PostgreSQL
      // breaks a deadlock (on the trigger-kept counts) as the app's transaction() does (decision 35).
      const write = async (text: string, params: unknown[]) => {
        for (;;) {
          try {
            await probe.query("BEGIN");
            await probe.query(text, params);
            await probe.query("COMMIT");
            return;
          } catch (error) {
            await probe.query("ROLLBACK");
            if ((error as { code?: string }).code !== "40P01") throw error;
            deadlocks++;
          }
        }
      };
      await write(`INSERT INTO subscribers (first_name, last_name, email, mobile, subscription_status) VALUES ('Probe', $1, $2, $3, 'pending')`, [`P${k}`, `probe${k}@retention.test`, `+44791${String(k).padStart(7, "0")}`]);
      await write(`UPDATE subscribers SET is_mandatory = NOT is_mandatory, updated_at = now() WHERE id = $1`, [kept!.id]);
      waits.push(performance.now() - start);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();

  t = performance.now();
  const first = await runRetention(now, settings);
  const firstMs = performance.now() - t;
  t = performance.now();
  const second = await runRetention(now, settings, values.batch ? Number(values.batch) : undefined);
  const secondMs = performance.now() - t;
  running = false;
  await probing;
  await probe.end();
  clearInterval(sampler);
  console.log(`first run (reports only): ${first.dry_run?.total} to erase, ${ms(firstMs)}`);
  console.log(`second run: ${second.subscribers} erased in ${second.batches} batches, ${(secondMs / 1000).toFixed(1)} s (${ms(secondMs / Math.max(1, second.batches))} a batch), ${second.exports} exports withdrawn`);
  console.log(`meanwhile, another connection's create + edit: ${waits.length} of them, p50 ${ms(quantile(waits, 0.5))}, p95 ${ms(quantile(waits, 0.95))}, max ${ms(Math.max(...waits))}, ${deadlocks} deadlocks broken and run again`);
  console.log(`heap peak ${mb(heapPeak)}, max RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
  await closeConnection();
});
