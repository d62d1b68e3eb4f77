import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_COLUMNS, MAX_HEADER } from "@/lib/imports/read";
import { PREVIEW_CELL, PREVIEW_ROWS } from "@/lib/imports/run";
import { Browser, startConsole, type ConsoleServer, type RawResponse } from "../helpers/console-server";
import { HOSTILE_ROWS, sharedStringsBomb, stylesBomb, WITHIN_LIMITS } from "../helpers/hostile-xlsx";
import { watchPeakMemory } from "../helpers/peak-memory";
import { buildZip, IMPORT_HEADER, sheetXml, workbookParts } from "../helpers/zip";

// What one upload may cost the web process, against the production build over HTTP: a workbook
// of a few hundred kilobytes whose styles or shared strings unpack to hundreds of megabytes (the
// reader kept them all, and the process died out of heap), the costliest workbooks within the
// reader's limits, a sheet thousands of columns wide (a status of megabytes on every poll), a
// worksheet's name that is no character. Each is answered, none with a 5xx, the server keeps
// answering, and its peak memory stays bounded (printed; scripts/bench/hostile-imports.ts repeats it).

const STAFF = { email: "staff@imports-bounds.test", password: "imports-bounds-password-1", role: "staff" as const };
const OTHER = { email: "other@imports-bounds.test", password: "imports-bounds-password-1", role: "staff" as const };
const URL = "/api/v1/subscribers/imports";

function multipart(file: Buffer, fileName: string, fields: Record<string, string> = { dry_run: "true" }) {
  const boundary = "----imports-bounds";
  const parts = [
    ...Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${fileName}"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ];
  return { method: "POST", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body: Buffer.concat(parts) };
}

const errorOf = (r: RawResponse) => (JSON.parse(r.body) as { error: { code: string; message: string } }).error;

describe("what one import upload may cost, over HTTP", () => {
  let server: ConsoleServer;
  let staff: Browser;
  let other: Browser;

  beforeAll(async () => {
    // A heap capped as a production process's would be: an upload that kept more than its share
    // kills the server (and the test), and the collector frees one upload's garbage before the
    // next instead of whenever a 24 GB machine's default heap lets it.
    server = await startConsole("pglite", { users: [STAFF, OTHER], env: { NODE_OPTIONS: "--max-old-space-size=512" } });
    staff = new Browser(server.url, "127.0.0.71");
    other = new Browser(server.url, "127.0.0.72");
    expect((await staff.signIn(STAFF.email, STAFF.password)).status).toBe(200);
    expect((await other.signIn(OTHER.email, OTHER.password)).status).toBe(200);
  });
  afterAll(async () => server?.close());

  const upload = (file: Buffer, name: string, fields?: Record<string, string>) => staff.request(URL, multipart(file, name, fields));

  it("answers hostile workbooks of a few hundred kilobytes, keeps answering, and its memory stays bounded", async () => {
    // Warm: the reader's modules loaded, a workbook read once.
    expect((await upload(buildZip(workbookParts(sheetXml(HOSTILE_ROWS))), "warm.xlsx")).status).toBe(200);
    const lines: string[] = [];
    let worst = 0;
    /** Uploads the file as a dry run, its answer checked by `expect`; the server's peak memory meanwhile, and another user's read after. */
    const measured = async (name: string, file: Buffer, check: (answer: RawResponse) => void) => {
      const watch = watchPeakMemory(server.pid);
      const started = Date.now();
      const answer = await upload(file, "hostile.xlsx");
      const seconds = (Date.now() - started) / 1000;
      const memory = watch.stop();
      check(answer);
      const read = Date.now();
      const other_ = await other.request("/api/v1/subscribers?per_page=1");
      expect(other_.status, other_.body).toBe(200);
      const growth = memory.peakMb - memory.startMb;
      worst = Math.max(worst, growth);
      lines.push(
        `${name} (${Math.round(file.length / 1024)} KB): ${answer.status} in ${seconds.toFixed(1)} s, resident ${memory.startMb.toFixed(0)} → peak ${memory.peakMb.toFixed(0)} MB (+${growth.toFixed(0)}${memory.exact ? "" : ", sampled"}); a one-row read after: ${Date.now() - read} ms`,
      );
    };

    // 130 MB of <xf/> in a file of some 190 KB: the styles are not read at all.
    const styles = stylesBomb(130);
    expect(styles.length).toBeLessThan(250_000);
    await measured("styles of 130 MB of <xf/>", styles, (answer) => {
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ total_rows: 1, imported_rows: 1 });
    });
    // 400 MB of <si><r/></si> in some 780 KB: refused by its size, naming the limit.
    const strings = sharedStringsBomb(400);
    expect(strings.length).toBeLessThan(1_000_000);
    await measured("shared strings of 400 MB of <si><r/></si>", strings, (answer) => {
      expect(answer.status, answer.body).toBe(400);
      expect(errorOf(answer)).toMatchObject({ code: "invalid_file", message: expect.stringMatching(/take 400 MB, more than the 50 MB an import reads/) });
    });
    // The costliest workbooks the reader reads whole, each at its limits.
    for (const { name, file } of WITHIN_LIMITS) {
      await measured(name, file(), (answer) => expect(answer.status, `${name}: ${answer.body.slice(0, 300)}`).toBe(200));
    }
    console.log(`imports-bounds: server ${server.pid}, each upload a dry run, one at a time:\n  ${lines.join("\n  ")}`);
    // One XLSX read keeps at most some 160 MB (docs/decisions/0021-what-an-xlsx-read-keeps.md);
    // a peak adds the garbage of the uploads before that the collector has not freed yet.
    expect(worst).toBeLessThan(500);
  });

  it(`refuses a sheet wider than ${MAX_COLUMNS} columns, or with a column name past ${MAX_HEADER} characters, with the limit`, async () => {
    // 21 rows of 5,000 columns, 19 MB: a status of 19 MB on every poll, a page of 61 MB.
    const cell = "x".repeat(180);
    const wide = Array.from({ length: 21 }, (_, r) => Array.from({ length: 5_000 }, (_, c) => (r === 0 ? `column ${c}` : cell)).join(",")).join("\n");
    const refused = await upload(Buffer.from(wide), "wide.csv");
    expect(refused.status, refused.body.slice(0, 300)).toBe(400);
    expect(errorOf(refused)).toMatchObject({ code: "invalid_file", message: "The file has 5,000 columns, more than the 200 an import reads: keep the columns to import (or is it the right file?)." });
    const long = await upload(Buffer.from(`first_name,last_name,email,mobile,${"n".repeat(MAX_HEADER + 1)}\nAnn,Lee,ann@bounds.test,+447911123456,x\n`), "long.csv");
    expect(long.status).toBe(400);
    expect(errorOf(long).message).toBe(`Column 5's name is longer than ${MAX_HEADER} characters: the first row must name the columns (is it the header?).`);
    // An XLSX's cell past the 200th column.
    const xlsx = buildZip(workbookParts(sheetXml([IMPORT_HEADER], { row: 1, xml: '<c r="GS1" t="inlineStr"><is><t>far</t></is></c>' })));
    const far = await upload(xlsx, "far.xlsx");
    expect(far.status, far.body).toBe(400);
    expect(errorOf(far)).toMatchObject({ code: "invalid_file", message: expect.stringMatching(/has a cell in column GS \(GS1\), past the 200 columns an import reads/) });
  });

  it(`keeps a status and its page small for a sheet ${MAX_COLUMNS} columns wide of long cells`, async () => {
    // 200 columns named with 200 characters, 21 rows of cells of 5,000 characters (21 MB).
    const header = Array.from({ length: MAX_COLUMNS }, (_, c) => (c < 4 ? IMPORT_HEADER[c]! : `${c}`.padEnd(MAX_HEADER, "h")));
    const row = Array.from({ length: MAX_COLUMNS }, () => "y".repeat(5_000));
    const text = [header.join(","), ...Array.from({ length: 21 }, () => row.join(","))].join("\n");
    const answer = await upload(Buffer.from(text), "wide-but-allowed.csv");
    expect(answer.status, answer.body.slice(0, 300)).toBe(200);
    const status = JSON.parse(answer.body) as { id: string; headers: string[]; preview: { cells: string[] }[] };
    expect(status.headers).toHaveLength(MAX_COLUMNS);
    expect(status.preview).toHaveLength(PREVIEW_ROWS);
    expect(status.preview[0]!.cells[10]).toBe(`${"y".repeat(PREVIEW_CELL - 1)}…`);
    // What it carries: the preview's cells, the header twice (the headers and the mapping's keys), and little else.
    const cells = PREVIEW_ROWS * MAX_COLUMNS * PREVIEW_CELL;
    const names = 2 * MAX_COLUMNS * MAX_HEADER;
    expect(answer.body.length).toBeLessThan(cells + names + 100_000);
    const polled = await staff.request(`${URL}/${status.id}`);
    expect(polled.status).toBe(200);
    expect(polled.body.length).toBeLessThan(cells + names + 100_000);
    const page = await staff.request(`/subscribers/import/${status.id}`);
    expect(page.status).toBe(200);
    console.log(`imports-bounds: a ${MAX_COLUMNS}-column preview: status ${Math.round(answer.body.length / 1024)} KB, page ${Math.round(page.body.length / 1024)} KB`);
    // The page carries the preview twice (its HTML, and React's payload of it) with its markup.
    expect(page.body.length).toBeLessThan(2_500_000);
  });

  it("answers a worksheet named with a reference to no character 400 invalid_file, not 500", async () => {
    for (const name of ["&#x110000;", "&#99999999;", "&#0;"]) {
      const parts = workbookParts(sheetXml(HOSTILE_ROWS)).map((p) => (p.name === "xl/workbook.xml" ? { ...p, data: String(p.data).replace('name="Sheet1"', `name="${name}"`) } : p));
      const answer = await upload(buildZip(parts), "named.xlsx");
      expect(answer.status, `${name}: ${answer.body}`).toBe(400);
      expect(errorOf(answer), name).toMatchObject({ code: "invalid_file", message: expect.stringMatching(/A worksheet's name in this XLSX holds a character XML does not allow/) });
    }
  });
});
