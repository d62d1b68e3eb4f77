import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, startConsole, type ConsoleServer, type RawResponse } from "../helpers/console-server";
import { describeAnswer } from "../helpers/security-headers";

// Imports' previews within the per-user limit of heavy requests, against the production build:
// one user's burst of uploads runs a few at a time (the rest wait their turn or get a 429) and
// another user's preview is not held up behind it; and a page asked while every one of its
// user's heavy requests is taken is refused by the proxy, before anything of it renders.

const PASSWORD = "preview-limits-password-1";
const ANN = { email: "ann@preview-limits.test", password: PASSWORD, role: "staff" as const };
const BEA = { email: "bea@preview-limits.test", password: PASSWORD, role: "staff" as const };
/** Bea's file, and Ann's: hers last while Bea's preview runs. */
const ROWS = 3_000;
const ANN_ROWS = 10_000;

/** A CSV of `rows` valid rows, one email domain per caller so that nothing is a duplicate of another's. */
function csv(rows: number, tag: string): string {
  const lines = ["first_name,last_name,email,mobile"];
  for (let i = 0; i < rows; i++) lines.push(`Ann${i},Lee,${tag}${i}@example.com,+4479111${String(i).padStart(5, "0")}`);
  return `${lines.join("\n")}\n`;
}

function multipart(file: string, name: string): { body: Buffer; type: string } {
  const boundary = "preview-limits-boundary";
  const body =
    `--${boundary}\r\ncontent-disposition: form-data; name="dry_run"\r\n\r\ntrue\r\n` +
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: text/csv\r\n\r\n${file}\r\n--${boundary}--\r\n`;
  return { body: Buffer.from(body), type: `multipart/form-data; boundary=${boundary}` };
}

const timed = async <T,>(run: () => Promise<T>) => {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
};

describe("previews within the user's limit (production build)", () => {
  let server: ConsoleServer;
  let ann: Browser;
  let bea: Browser;

  beforeAll(async () => {
    server = await startConsole("pglite", { users: [ANN, BEA] });
    ann = new Browser(server.url, "127.0.0.71");
    bea = new Browser(server.url, "127.0.0.72");
    expect((await ann.signIn(ANN.email, PASSWORD)).status).toBe(200);
    expect((await bea.signIn(BEA.email, PASSWORD)).status).toBe(200);
  });
  afterAll(async () => server?.close());

  const preview = (who: Browser, file: { body: Buffer; type: string }) =>
    who.request("/api/v1/subscribers/imports", { method: "POST", headers: { "content-type": file.type }, body: file.body });

  it("runs one user's burst of previews a few at a time, and another user's preview is not held up behind it", async () => {
    const annFile = multipart(csv(ANN_ROWS, "ann"), "ann.csv");
    const beaFile = multipart(csv(ROWS, "bea"), "bea.csv");
    // Warmed up, then Bea's preview alone: what it costs on this machine.
    expect((await preview(bea, beaFile)).status).toBe(200);
    const alone = await timed(() => preview(bea, beaFile));
    expect(alone.value.status, describeAnswer(alone.value)).toBe(200);

    const burst = Promise.all(Array.from({ length: 12 }, () => preview(ann, annFile)));
    let over = false;
    void burst.finally(() => (over = true)).catch(() => {}); // awaited below
    await new Promise((r) => setTimeout(r, 300)); // Ann's previews under way
    // Bea reads her imports all through Ann's burst, and previews a file of her own meanwhile.
    const reading = (async () => {
      const ms: number[] = [];
      while (!over) {
        ms.push((await timed(() => bea.request("/api/v1/subscribers/imports"))).ms);
        await new Promise((r) => setTimeout(r, 50));
      }
      return ms;
    })();
    const beside = await timed(() => preview(bea, beaFile));
    const answers = await burst;
    const reads = (await reading).sort((a, b) => a - b);
    const p95 = reads[Math.floor(reads.length * 0.95)] ?? 0;
    console.log(`Bea's preview of ${ROWS} rows: alone ${Math.round(alone.ms)} ms, beside Ann's burst ${Math.round(beside.ms)} ms; ${reads.length} reads meanwhile, p95 ${Math.round(p95)} ms, max ${Math.round(reads.at(-1) ?? 0)} ms`);
    expect(beside.value.status, describeAnswer(beside.value)).toBe(200);
    expect(JSON.parse(beside.value.body)).toMatchObject({ dry_run: true, status: "completed", total_rows: ROWS, imported_rows: ROWS });
    // Bea shares the server with one preview of Ann's at a time, not twelve: her preview takes
    // about twice its time alone (not twelve times), seconds more, and her reads stay quick.
    expect(beside.ms).toBeLessThan(4 * alone.ms + 2_000);
    expect(p95).toBeLessThan(1_500);
    // Ann's previews: each one made or refused with 429 and Retry-After (one runs, eight wait their
    // turn for at most 10 s); not all twelve at once.
    for (const a of answers) expect([200, 429], describeAnswer(a)).toContain(a.status);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length, answers.map((a) => a.status).join(" ")).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.headers["retry-after"]).toBe("2");
      expect(JSON.parse(r.body).error.code).toBe("too_many_requests");
    }
  });

  it("refuses the pages of a user whose heavy requests are all taken with a 429 before rendering anything", async () => {
    const strict = await startConsole("pglite", { users: [ANN, BEA], env: { HEAVY_REQUESTS_PER_USER: "1", HEAVY_REQUESTS_QUEUE: "0" } });
    try {
      const annThere = new Browser(strict.url, "127.0.0.73");
      const beaThere = new Browser(strict.url, "127.0.0.74");
      expect((await annThere.signIn(ANN.email, PASSWORD)).status).toBe(200);
      expect((await beaThere.signIn(BEA.email, PASSWORD)).status).toBe(200);
      // Ann's one heavy request: an upload whose body is still arriving holds her only place.
      const url = new URL(strict.url);
      const boundary = "held-upload";
      const upload = http.request({
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/api/v1/subscribers/imports",
        headers: { cookie: annThere.cookie, "content-type": `multipart/form-data; boundary=${boundary}`, "transfer-encoding": "chunked" },
        localAddress: "127.0.0.73",
        agent: false,
      });
      const uploaded = new Promise<number>((resolve, reject) => {
        upload.on("response", (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        });
        upload.on("error", reject);
      });
      upload.write(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="held.csv"\r\ncontent-type: text/csv\r\n\r\nfirst_name,last_name,email,mobile\r\n`);
      // The upload takes her place once the server has read its first part: wait for that (a
      // loaded machine takes longer than a fixed pause), at most 15 s.
      for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
        if ((await annThere.request("/audit")).status === 429) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      // Every page that counts among her heavy requests: the proxy's own short page, 429, Retry-After.
      const pages = ["/subscribers?q=a%20e", "/subscribers", "/audit", "/subscribers/import", "/subscribers/bulk?scope=all&change=mandatory:true"];
      const answers: RawResponse[] = [];
      for (const path of pages) answers.push(await annThere.request(path), await annThere.request(path, { headers: { rsc: "1" } }));
      for (const a of answers) {
        expect(a.status, describeAnswer(a)).toBe(429);
        expect(a.headers["retry-after"]).toBe("2");
        expect(a.body).toMatch(/Too many lists loading at once/);
        expect(a.body).toMatch(/You already have 1 list or export loading/);
        expect(a.body).not.toContain("/_next/static/"); // no page of the console was rendered
        expect(a.headers["content-security-policy"]).toMatch(/nonce-/);
      }
      // Her other pages, and Bea's lists, are served.
      expect((await annThere.request("/branches")).status).toBe(200);
      expect((await beaThere.request("/subscribers?q=a%20e")).status).toBe(200);
      // The upload ends: her place is free again.
      upload.end(`Ann,Lee,held@example.com,+447911100001\r\n--${boundary}\r\ncontent-disposition: form-data; name="dry_run"\r\n\r\ntrue\r\n--${boundary}--\r\n`);
      expect(await uploaded).toBe(200);
      const after = await annThere.request("/subscribers?q=a%20e");
      expect(after.status).toBe(200);
      // What the page shows, not the catalogue words its scripts carry for the notice.
      expect(after.body.replace(/<script[\s\S]*?<\/script>/g, "")).not.toMatch(/Too many lists loading at once/);
    } finally {
      await strict.close();
    }
  });
});
