// `npx tsx scripts/bench/hostile-imports.ts [--repeat N]`: what one import upload costs the web
// process. Serves the production build (`npx next build` first: it does not build) on an
// embedded database of its own, signs in, and uploads as dry runs, one at a time, the hostile
// workbooks of tests/helpers/hostile-xlsx.ts: styles of 130 MB of <xf/> (some 190 KB), shared
// strings of 400 MB of <si><r/></si> (some 780 KB), and the costliest workbooks within the
// reader's limits. For each: the answer, its time, the server's resident memory before and at
// its peak (VmHWM, reset before each upload), and how long another user's one-row read takes
// after it. `--repeat 3` uploads the whole set three times (the peak settles: nothing is kept).
import { parseArgs } from "node:util";
import { Browser, startConsole } from "../../tests/helpers/console-server";
import { sharedStringsBomb, stylesBomb, WITHIN_LIMITS } from "../../tests/helpers/hostile-xlsx";
import { watchPeakMemory } from "../../tests/helpers/peak-memory";

const { values } = parseArgs({ options: { repeat: { type: "string", default: "1" } } });
const repeat = Number(values.repeat);
if (!Number.isInteger(repeat) || repeat < 1) throw new Error("--repeat takes a whole number, at least 1");

const USER = { email: "bench@hostile-imports.test", password: "hostile-imports-bench-1", role: "staff" as const };
const OTHER = { email: "other@hostile-imports.test", password: "hostile-imports-bench-1", role: "staff" as const };

function multipart(file: Buffer) {
  const boundary = "----hostile-imports";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="dry_run"\r\n\r\ntrue\r\n`),
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="hostile.xlsx"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { method: "POST", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body };
}

const files = [
  { name: "styles: 130 MB of <xf/>", file: () => stylesBomb(130) },
  { name: "shared strings: 400 MB of <si><r/></si>", file: () => sharedStringsBomb(400) },
  ...WITHIN_LIMITS,
].map(({ name, file }) => ({ name, bytes: file() }));

const server = await startConsole("pglite", { users: [USER, OTHER] });
try {
  const user = new Browser(server.url);
  const other = new Browser(server.url);
  await user.signIn(USER.email, USER.password);
  await other.signIn(OTHER.email, OTHER.password);
  await other.request("/api/v1/subscribers?per_page=1");
  const first = watchPeakMemory(server.pid).stop().startMb;
  let peak = first;
  console.log(`server ${server.pid}: resident ${first.toFixed(0)} MB, signed in`);
  for (let round = 1; round <= repeat; round++) {
    for (const { name, bytes } of files) {
      const watch = watchPeakMemory(server.pid);
      const started = Date.now();
      const answer = await user.request("/api/v1/subscribers/imports", multipart(bytes));
      const seconds = (Date.now() - started) / 1000;
      const memory = watch.stop();
      peak = Math.max(peak, memory.peakMb);
      const read = Date.now();
      const one = await other.request("/api/v1/subscribers?per_page=1");
      const what = answer.status === 200 ? "200" : `${answer.status} ${(JSON.parse(answer.body) as { error?: { message?: string } }).error?.message?.slice(0, 70)}…`;
      console.log(
        `${repeat > 1 ? `[${round}] ` : ""}${name} (${Math.round(bytes.length / 1024)} KB): ${what} in ${seconds.toFixed(1)} s; resident ${memory.startMb.toFixed(0)} → peak ${memory.peakMb.toFixed(0)} MB (+${(memory.peakMb - memory.startMb).toFixed(0)}${memory.exact ? "" : ", sampled"}); another user's one-row read: ${one.status} in ${Date.now() - read} ms`,
      );
    }
  }
  console.log(`peak resident memory of the server over the run: ${peak.toFixed(0)} MB (${(peak - first).toFixed(0)} MB over the ${first.toFixed(0)} MB it started the uploads with)`);
} finally {
  await server.close();
}
