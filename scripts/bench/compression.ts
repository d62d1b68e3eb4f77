// What compressing the console's answers costs and saves (docs/decisions/0039-compression.md):
// serves a build as `npm run serve` does, fetches each path uncompressed as a browser session
// would (a page's HTML, and its RSC payload as a client-side navigation asks it), keeping the
// chunks as the server wrote them, then compresses each answer the way a streaming server does
// (every chunk written and flushed, as Next flushes a streamed page) at several gzip levels and
// brotli qualities, and reports the CPU per answer (the process's CPU, median of the runs) and the bytes.
//
//   npx tsx --conditions=react-server scripts/bench/compression.ts [--as admin] [--runs 200] [DIR]
import http from "node:http";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { openDatabase } from "@/lib/db/client";
import { BENCH_USERS, resetBenchPassword } from "@/tools/seed/bulk";
import { bulkTarget } from "../bulk-load";
import { kB } from "./page-weight";
import { signIn, startServer } from "./server";

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    as: { type: "string", default: "admin" },
    runs: { type: "string", default: "200" },
    paths: { type: "string", default: "/branches,/subscribers,/login,/api/v1/branches,/api/v1/subscribers" },
  },
});
const dir = positionals[0] ?? process.cwd();

/** The answer's body as the chunks the server wrote (uncompressed). */
function chunksOf(url: string, headers: Record<string, string>): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { ...headers, "accept-encoding": "identity" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          // An RSC request without Next's cache-busting `_rsc` parameter is sent to the address with it.
          if (res.statusCode === 307 && res.headers.location?.includes("_rsc")) return void chunksOf(new URL(res.headers.location, url).href, headers).then(resolve, reject);
          if (res.statusCode === 200) resolve(chunks);
          else reject(new Error(`${url} answered ${res.statusCode}`));
        });
      })
      .on("error", reject);
  });
}

type Codec = { name: string; make: () => zlib.Gzip | zlib.BrotliCompress; flush: number };
const codecs: Codec[] = [
  ...[1, 6, 9].map((level) => ({ name: `gzip ${level}`, make: () => zlib.createGzip({ level }), flush: zlib.constants.Z_SYNC_FLUSH })),
  ...[1, 4].map((q) => ({
    name: `brotli ${q}`,
    make: () => zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: q } }),
    flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  })),
];

/** Compresses the chunks as a streaming server does; the compressed size and the thread CPU it took (ms). */
async function compress(codec: Codec, chunks: Buffer[]): Promise<{ bytes: number; cpu: number }> {
  // The process's CPU: zlib's streams work on libuv's threads (nothing else runs in this process meanwhile).
  const start = process.cpuUsage();
  const stream = codec.make();
  let bytes = 0;
  stream.on("data", (c: Buffer) => (bytes += c.length));
  const done = new Promise((r) => stream.on("end", r));
  for (const chunk of chunks) {
    stream.write(chunk);
    await new Promise<void>((r) => stream.flush(codec.flush, () => r()));
  }
  stream.end();
  await done;
  const used = process.cpuUsage(start);
  return { bytes, cpu: (used.user + used.system) / 1000 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const target = bulkTarget({ subscribers: 1_000_000, database: "console_bench" });
if (target.kind !== "postgres") throw new Error("Measured on the PostgreSQL bench database.");
const database = await openDatabase(target);
const user = BENCH_USERS.find((u) => u.role === args.as)!;
const password = await resetBenchPassword(database, user.email);
await database.close();
const server = await startServer(dir, { DATABASE_URL: target.url, DATABASE_POOL_SIZE: "10", WEB_CONCURRENCY: "1" });
try {
  const cookie = await signIn(server.url, user.email, password);
  console.log(`| answer | bytes | chunks | ${codecs.map((c) => `${c.name}: bytes, CPU ms`).join(" | ")} |`);
  console.log(`|---|---|---|${codecs.map(() => "---|").join("")}`);
  for (const p of args.paths.split(",")) {
    const kinds = p.startsWith("/api/") ? [["JSON", {}]] as const : [["HTML", {}], ["RSC", { rsc: "1" }]] as const;
    for (const [kind, extra] of kinds) {
      // /login as the signed-out visitor it is for (it sends a signed-in one on).
      const chunks = await chunksOf(`${server.url}${p}`, { ...(p === "/login" ? {} : { cookie }), ...extra });
      const size = chunks.reduce((n, c) => n + c.length, 0);
      const cells = [];
      for (const codec of codecs) {
        const cpu: number[] = [];
        let bytes = 0;
        for (let r = 0; r < Number(args.runs); r++) {
          const run = await compress(codec, chunks);
          bytes = run.bytes;
          cpu.push(run.cpu);
        }
        cells.push(`${kB(bytes)}, ${median(cpu).toFixed(2)}`);
      }
      console.log(`| ${p} ${kind} | ${kB(size)} | ${chunks.length} | ${cells.join(" | ")} |`);
    }
  }
} finally {
  await server.stop();
}
