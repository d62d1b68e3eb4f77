// One import run as the worker runs it, in a process of its own so that its memory is its own:
// `tsx --conditions=react-server scripts/bench/import-worker.ts <import id>` (DATABASE_URL and
// STORAGE_DIR set by bench-import.ts). Prints one JSON line: seconds, idle and peak RSS.
import { closeConnection, connection } from "@/lib/db/sql";
import { runImport } from "@/lib/imports/run";
import { toolEnv } from "@/tools/env";

async function main() {
  const id = process.argv[2]!;
  await connection();
  global.gc?.();
  await new Promise((r) => setTimeout(r, 200));
  const idle = process.memoryUsage().rss;
  const started = performance.now();
  let peak = idle;
  let heap = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    heap = Math.max(heap, m.heapUsed + m.external + m.arrayBuffers);
  }, 50);
  const trace = toolEnv(["BENCH_IMPORT_TRACE"]).BENCH_IMPORT_TRACE
    ? setInterval(() => {
        const m = process.memoryUsage();
        console.error(`${((performance.now() - started) / 1000).toFixed(0)} s: rss ${m.rss >> 20} MB, heap ${m.heapUsed >> 20} MB, external ${m.external >> 20} MB`);
      }, 1000)
    : null;
  const result = await runImport(id);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (trace) clearInterval(trace);
  peak = Math.max(peak, process.memoryUsage().rss);
  await closeConnection();
  console.log(JSON.stringify({ seconds, idle, peak, heap, result }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
