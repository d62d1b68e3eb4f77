import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, startConsole, type ConsoleServer } from "../helpers/console-server";
import { rssMb } from "../helpers/next-server";
import { lyingXlsx } from "../helpers/zip";

// The import's upload against the production build over real HTTP, as an attacker sends it:
// multipart from curl as browsers send it, a file past IMPORT_MAX_MB
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
    server = await startConsole("pglite", { users: [STAFF, OTHER], env: { IMPORT_MAX_MB: "2", JOB_POLL_SECONDS: "1" } });
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

  it("refuses a zip bomb with false sizes at its first lie and a quote never closed, with the reason; memory stays flat", async () => {
    const before = rssMb(server.pid);
    // 200 MB of one shared string in a file of some 200 KB whose zip declares 20 KB for it.
    const bomb = path.join(dir, "bomb.xlsx");
    fs.writeFileSync(bomb, lyingXlsx(200e6));
    const started = Date.now();
    const refused = await curl([...WRITE, ...as(staff), "-F", `file=@${bomb}`, "-F", "dry_run=true", url()]);
    expect(refused.status, refused.body).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: "invalid_file", message: expect.stringMatching(/unpacks to more than the 20,000 bytes its zip declares/) } });
    // A quote opened on line 2 and never closed, in a file near IMPORT_MAX_MB.
    const open = path.join(dir, "open.csv");
    const good = "Ann,Lee,ann@http.test,+447400123456\n";
    fs.writeFileSync(open, `first_name,last_name,email,mobile\n"Open,Lee,x@http.test,+447400123450\n${good.repeat(Math.floor((1.9 * MB) / good.length))}`);
    const quote = await curl([...WRITE, ...as(staff), "-F", `file=@${open}`, "-F", "dry_run=true", url()]);
    expect(quote.status, quote.body).toBe(400);
    expect(JSON.parse(quote.body)).toMatchObject({ error: { code: "invalid_file", message: expect.stringMatching(/A quote opened on line 2 is not closed within/) } });
    const pdf = path.join(dir, "report.csv");
    fs.writeFileSync(pdf, "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\nfirst_name,last_name\n");
    const notSheet = await curl([...WRITE, ...as(staff), "-F", `file=@${pdf}`, "-F", "dry_run=true", url()]);
    expect(notSheet.status).toBe(400);
    expect(JSON.parse(notSheet.body).error.message).toMatch(/PDF document, neither CSV nor XLSX/);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(rssMb(server.pid) - before).toBeLessThan(100);
  });

  it("takes each field once, and only the fields an import has: a field sent twice is 400 naming it", async () => {
    const file = path.join(dir, "once.csv");
    fs.writeFileSync(file, "first_name,last_name,email,mobile\nAnn,Lee,once@http.test,+447400123458\n");
    const count = async () => JSON.parse((await staff.request("/api/v1/subscribers/imports")).body).data.length as number;
    const imports = await count();
    for (const [extra, message] of [
      [["-F", "dry_run=true", "-F", "dry_run=false"], /The field "dry_run" is sent twice/],
      [["-F", "dry_run=false", "-F", "dry_run=true"], /The field "dry_run" is sent twice/],
      [["-F", "dry_run=true", "-F", "salary=1"], /The field "salary" is not one an import takes/],
      [["-F", "dry_run=true", "-F", `other=@${file}`], /The part "other" is not one an import takes/],
    ] as const) {
      const answer = await curl([...WRITE, ...as(staff), "-F", `file=@${file}`, ...extra, url()]);
      expect(answer.status, `${extra.join(" ")}: ${answer.body}`).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "invalid_input", message: expect.stringMatching(message) } });
    }
    const text = await curl([...WRITE, ...as(staff), "-F", "file=first_name", url()]);
    expect(JSON.parse(text.body).error.message).toMatch(/must be the file itself/);
    expect(await count()).toBe(imports); // no import was started
  });

  it("reads file names as UTF-8 and passes them through the text rule; says which columns are not imported", async () => {
    const file = path.join(dir, "names.csv");
    fs.writeFileSync(file, "first_name,last_name,email,E-mail,mobile,salary\nAnn,Lee,names@http.test,x@http.test,+447400123459,100\n");
    const cafe = await curl([...WRITE, ...as(staff), "-F", `file=@${file};filename=Café été.csv`, "-F", "dry_run=true", url()]);
    expect(cafe.status, cafe.body).toBe(200);
    const body = JSON.parse(cafe.body) as { id: string; file_name: string; sheet_name: string; warnings: string[]; problems: string[] };
    expect(body).toMatchObject({ file_name: "Café été.csv", sheet_name: "Café été", problems: [] });
    expect(body.warnings).toEqual([
      'Column not imported: "salary" (no field matches it: map it to a field to import it).',
      '"E-mail" also looks like Email, which "email" fills: it is not imported (map it instead if it is the right column).',
    ]);
    const page = await staff.request(`/subscribers/import/${body.id}`);
    expect(page.body).toContain("Column not imported: &quot;salary&quot;");
    const evil = await curl([...WRITE, ...as(staff), "-F", `file=@${file};filename=evil\u202egpj\u0085.csv`, "-F", "dry_run=true", url()]);
    expect(evil.status, evil.body).toBe(200);
    expect(JSON.parse(evil.body)).toMatchObject({ file_name: "evilgpj.csv", sheet_name: "evilgpj" });
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
