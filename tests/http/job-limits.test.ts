import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, startConsole, type ConsoleServer, type RawResponse } from "../helpers/console-server";
import { describeAnswer } from "../helpers/security-headers";

// The per-user bounds on background work and stored previews, as a client meets them over real
// HTTP against the production build: a user's jobs past JOBS_PER_USER are refused with 429 and
// Retry-After whichever kind and body shape asks, another user's are not; a user's unstarted
// previews past IMPORT_PREVIEW_QUOTA_MB are refused with 413 and not kept. No worker runs, so
// every queued job stays unfinished.

const PASSWORD = "job-limits-password-1";
const ANN = { email: "ann@job-limits.test", password: PASSWORD, role: "staff" as const };
const BEA = { email: "bea@job-limits.test", password: PASSWORD, role: "staff" as const };

function multipart(parts: Record<string, string>, file: string): { body: Buffer; type: string } {
  const boundary = "job-limits-boundary";
  let body = "";
  for (const [name, value] of Object.entries(parts)) body += `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  body += `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="people.csv"\r\ncontent-type: text/csv\r\n\r\n${file}\r\n--${boundary}--\r\n`;
  return { body: Buffer.from(body), type: `multipart/form-data; boundary=${boundary}` };
}

/** A CSV of `rows` valid rows, padded to about `bytes` with a long last name. */
function csv(rows: number, tag: string, bytes = 0): string {
  const pad = "x".repeat(Math.max(0, Math.floor(bytes / rows) - 60));
  const lines = ["first_name,last_name,email,mobile"];
  for (let i = 0; i < rows; i++) lines.push(`Ann${i},Lee${pad},${tag}${i}@example.com,+4479112${String(i).padStart(5, "0")}`);
  return `${lines.join("\n")}\n`;
}

const errorOf = (a: RawResponse) => (JSON.parse(a.body) as { error: { code: string; message: string } }).error;

describe("per-user limits of jobs and previews (production build)", () => {
  let server: ConsoleServer;
  let ann: Browser;
  let bea: Browser;

  beforeAll(async () => {
    server = await startConsole("pglite", {
      users: [ANN, BEA],
      env: { JOB_WORKER: "off", JOBS_PER_USER: "1", IMPORT_MAX_MB: "1", IMPORT_PREVIEW_QUOTA_MB: "1" },
    });
    ann = new Browser(server.url, "127.0.0.81");
    bea = new Browser(server.url, "127.0.0.82");
    expect((await ann.signIn(ANN.email, PASSWORD)).status).toBe(200);
    expect((await bea.signIn(BEA.email, PASSWORD)).status).toBe(200);
  });
  afterAll(async () => server?.close());

  const upload = (who: Browser, file: { body: Buffer; type: string }) =>
    who.request("/api/v1/subscribers/imports", { method: "POST", headers: { "content-type": file.type }, body: file.body });

  it("refuses a user's job past the limit with 429 and Retry-After, whatever kind or body shape asks, and not another user's", async () => {
    const first = await ann.request("/api/v1/subscribers/export", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(first.status, describeAnswer(first)).toBe(202);

    // An import that would be queued: refused before anything is kept.
    const imported = await upload(ann, multipart({ sheet_name: "Limits" }, csv(3, "ann")));
    expect(imported.status, describeAnswer(imported)).toBe(429);
    expect(imported.headers["retry-after"]).toBe("30");
    expect(errorOf(imported).code).toBe("too_many_jobs");
    expect(JSON.parse((await ann.request("/api/v1/subscribers/imports")).body)).toEqual({ data: [] });

    // The same refusal with the parts in another order and the field given twice is still a 4xx, never a job.
    const twice = multipart({ sheet_name: "A" }, csv(3, "ann2"));
    const twiceBody = Buffer.concat([Buffer.from(`--job-limits-boundary\r\ncontent-disposition: form-data; name="sheet_name"\r\n\r\nB\r\n`), twice.body]);
    const again = await upload(ann, { body: twiceBody, type: twice.type });
    expect(again.status, describeAnswer(again)).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);

    // Another user's work is not held back by Ann's.
    const other = await bea.request("/api/v1/subscribers/export", { method: "POST" });
    expect(other.status, describeAnswer(other)).toBe(202);
  });

  it("refuses a preview past the user's storage quota with 413 and keeps nothing of it", async () => {
    const file = multipart({ dry_run: "true" }, csv(200, "bea", 600_000));
    expect(file.body.length).toBeGreaterThan(550_000);
    const kept = await upload(bea, file);
    expect(kept.status, describeAnswer(kept)).toBe(200);
    const refused = await upload(bea, file);
    expect(refused.status, describeAnswer(refused)).toBe(413);
    expect(errorOf(refused).code).toBe("quota_exceeded");
    // Ann's quota is her own.
    const hers = await upload(ann, multipart({ dry_run: "true" }, csv(200, "ann3", 600_000)));
    expect(hers.status, describeAnswer(hers)).toBe(200);
  });
});
