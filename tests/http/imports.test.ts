import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, startConsole, type ConsoleServer } from "../helpers/console-server";
import { rssMb } from "../helpers/next-server";

// The import's upload against the production build over real HTTP, as an attacker sends it
// (issue 14, points 1 and 7): multipart from curl as browsers send it, a file past IMPORT_MAX_MB
// declared or chunked (413 before the rest is read, memory flat), malformed and truncated
// multipart bodies, hostile file names, another site's form, a token, no session: each a 4xx
// with a reason, never a 500, and nothing kept.

const STAFF = { email: "staff@imports-http.test", password: "imports-http-password-1", role: "staff" as const };
const OTHER = { email: "other@imports-http.test", password: "imports-http-password-1", role: "staff" as const };
const MB = 1024 * 1024;

type CurlResult = { status: number; body: string; sent: number };

function curl(args: string[], stdin?: string): Promise<CurlResult> {
  return new Promise((resolve, reject) => {
    const command = [...(stdin ? ["sh", "-c", `${stdin} | ${["curl", ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ")}`] : ["curl", ...args])];
    const child = spawn(command[0]!, command.slice(1));
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("close", () => {
      const lines = out.trimEnd().split("\n");
      const [status, sent] = lines.pop()!.split(" ").map(Number);
      resolve({ status: status!, body: lines.join("\n"), sent: sent! });
    });
  });
}

const WRITE = ["-s", "-o", "-", "-w", "\\n%{http_code} %{size_upload}"];

describe("imports over HTTP", () => {
  let server: ConsoleServer;
  let staff: Browser;
  let other: Browser;
  let dir: string;

  beforeAll(async () => {
    server = await startConsole("pglite", { users: [STAFF, OTHER], env: { IMPORT_MAX_MB: "2", EXPORT_POLL_SECONDS: "1" } });
    staff = new Browser(server.url, "127.0.0.61");
    other = new Browser(server.url, "127.0.0.62");
    expect((await staff.signIn(STAFF.email, STAFF.password)).status).toBe(200);
    expect((await other.signIn(OTHER.email, OTHER.password)).status).toBe(200);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "imports-http-"));
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const url = () => `${server.url}/api/v1/subscribers/imports`;
  const as = (who: Browser) => ["-H", `cookie: ${who.cookie}`];

  it("takes a sheet as curl -F sends it, previews it, and keeps it its owner's", async () => {
    const file = path.join(dir, "../../etc/passwd.csv".replaceAll("/", "_"));
    fs.writeFileSync(file, "first_name,last_name,email,mobile\nAnn,Lee,ann@http.test,+447400123456\nBob,Roe,bad,+447400123457\n");
    const preview = await curl([...WRITE, ...as(staff), "-F", `file=@${file};filename=../../etc/passwd.csv`, "-F", "dry_run=true", url()]);
    expect(preview.status, preview.body).toBe(200);
    const body = JSON.parse(preview.body) as { id: string; file_name: string; imported_rows: number; rejected_rows: number };
    expect(body).toMatchObject({ file_name: "passwd.csv", imported_rows: 1, rejected_rows: 1 });
    expect((await other.request(`/api/v1/subscribers/imports/${body.id}`)).status).toBe(404);
    expect((await staff.request(`/api/v1/subscribers/imports/${body.id}`)).status).toBe(200);
    // A control character in a part's header is a malformed body: 400 with the reason.
    const control = await curl([...WRITE, ...as(staff), "-F", `file=@${file};filename=a\u0001.csv`, url()]);
    expect(control.status, control.body).toBe(400);
    expect(JSON.parse(control.body)).toMatchObject({ error: { code: "invalid_input", message: expect.stringMatching(/malformed/) } });
    // The page of the import: its owner's; the other user gets the 404 page.
    expect((await staff.request(`/subscribers/import/${body.id}`)).status).toBe(200);
    expect((await other.request(`/subscribers/import/${body.id}`)).status).toBe(404);
  });

  it("answers 413 to a file past IMPORT_MAX_MB, declared or chunked, before reading the rest; memory stays flat", async () => {
    expect((await staff.request("/api/v1/subscribers/imports")).status).toBe(200);
    const before = rssMb(server.pid);
    const head = `--x\r\ncontent-disposition: form-data; name="file"; filename="big.csv"\r\ncontent-type: text/csv\r\n\r\nfirst_name,last_name,email,mobile\r\n`;
    const huge = 300 * MB;
    const declared = await curl(
      [...WRITE, ...as(staff), "-X", "POST", "-H", "content-type: multipart/form-data; boundary=x", "-H", `content-length: ${huge}`, "--data-binary", "@-", url()],
      `(printf '%b' '${head.replaceAll("\r\n", "\\r\\n")}'; head -c ${huge} /dev/zero | tr '\\0' 'a')`,
    );
    expect(declared.status, declared.body).toBe(413);
    expect(declared.sent).toBeLessThan(huge);
    const chunked = await Promise.all(
      [0, 1].map(() =>
        curl(
          [...WRITE, ...as(staff), "-X", "POST", "-H", "content-type: multipart/form-data; boundary=x", "-H", "transfer-encoding: chunked", "--data-binary", "@-", url()],
          `(printf '%b' '${head.replaceAll("\r\n", "\\r\\n")}'; head -c ${huge} /dev/zero | tr '\\0' 'a')`,
        ),
      ),
    );
    for (const r of chunked) {
      expect(r.status, r.body).toBe(413);
      expect(JSON.parse(r.body)).toMatchObject({ error: { code: "too_large" } });
      expect(r.sent).toBeLessThan(huge);
    }
    expect(rssMb(server.pid) - before).toBeLessThan(100);
    expect((await staff.request("/api/v1/subscribers/imports")).status).toBe(200); // and it still answers
  });

  it("answers 4xx, never 500, to malformed, truncated and hostile multipart bodies", async () => {
    const bodies: [string, string, number][] = [
      ["multipart/form-data", "--x\r\n", 400], // no boundary
      ["multipart/form-data; boundary=x", "--x\r\ncontent-disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\nfirst_name\r\n", 400], // cut off
      ["multipart/form-data; boundary=x", "garbage without parts", 400],
      ["multipart/form-data; boundary=x", "--x\r\ncontent-disposition: form-data; name=\"dry_run\"\r\n\r\nmaybe\r\n--x--\r\n", 400],
      ["multipart/form-data; boundary=x", `--x\r\ncontent-disposition: form-data; name="file"; filename="a.csv"\r\n\r\nfirst_name,last_name,email,mobile\r\nA,B,a@b.co,+447911123456\r\n--x\r\ncontent-disposition: form-data; name="mapping"\r\n\r\n{not json\r\n--x--\r\n`, 400],
      ["multipart/form-data; boundary=x", `--x\r\ncontent-disposition: form-data; name="file"; filename="a.csv"\r\n\r\na\r\n--x\r\ncontent-disposition: form-data; name="file"; filename="b.csv"\r\n\r\nb\r\n--x--\r\n`, 400],
      ["text/csv", "first_name\nx", 415],
      ["application/json", "{}", 415],
    ];
    for (const [type, body, status] of bodies) {
      const response = await staff.request("/api/v1/subscribers/imports", { method: "POST", headers: { "content-type": type }, body });
      expect(response.status, `${type} ${JSON.stringify(body).slice(0, 60)}: ${response.body}`).toBe(status);
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
  });

  it("refuses another site's form, a token, and no session", async () => {
    const file = path.join(dir, "x.csv");
    fs.writeFileSync(file, "first_name,last_name,email,mobile\nA,B,a@b.co,+447911123456\n");
    const crossSite = await curl([...WRITE, ...as(staff), "-H", "origin: https://evil.example", "-F", `file=@${file}`, url()]);
    expect(crossSite.status).toBe(403);
    const anonymous = await curl([...WRITE, "-F", `file=@${file}`, url()]);
    expect(anonymous.status).toBe(401);
    const made = await staff.request("/api/v1/tokens", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "import try", scope: "export", expires_at: new Date(Date.now() + 86_400_000 * 2).toISOString().slice(0, 10) }),
    });
    const { token } = JSON.parse(made.body) as { token: string };
    const withToken = await curl([...WRITE, "-H", `authorization: Bearer ${token}`, "-F", `file=@${file}`, url()]);
    expect(withToken.status).toBe(403);
  });
});
