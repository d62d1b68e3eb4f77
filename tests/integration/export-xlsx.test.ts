import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as exportPOST } from "@/app/api/v1/subscribers/export/route";
import { POST as importPOST } from "@/app/api/v1/subscribers/imports/route";
import { GET as importGET } from "@/app/api/v1/subscribers/imports/[id]/route";
import type { SessionUser } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import { connection } from "@/lib/db/sql";
import { EXPORT_COLUMNS, unneutralised } from "@/lib/export/csv";
import type { ImportStatus } from "@/lib/imports/imports";
import { startJobWorker } from "@/lib/jobs/worker";
import { actAs, testDbKinds } from "../helpers/db";
import {
  closeExportSuite, download, FILES_KINDS, openExportSuite, parseCsv, postExport, waitForStatus, type ExportSuite,
} from "../helpers/export-test";
import { apiRequest, routeContext } from "../helpers/http";
import { fromSerial, readXlsx, type ReadCell } from "../helpers/xlsx-read";

// The Excel export end to end, on PGlite and PostgreSQL, files in a folder and in a bucket:
// requested with `format` (API and panel action), the same rows as the CSV through the same job,
// hostile values from the database read back cell by cell by a reader that is not ExcelJS, the
// format in the status and the audit log, and the workbook imported back unchanged.

const ROWS = 400;
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * Values a spreadsheet could take for a formula or mangle, as stored by someone going around the
 * forms (the columns hold at most 100 characters: 32,767-character cells are the unit test's).
 */
const HOSTILE = [
  "=1+2", "+447700900123", "-5", "@SUM(A1:A2)", " =padded", "a\u0001b\u001Fc", "cr\rlf\n", "مرحبا", "\u202Eevil", "_x0041_", "<&>",
  "é".repeat(100),
];

async function exportAs(user: SessionUser, format: "csv" | "xlsx", filters: Record<string, string> = {}) {
  const answer = await postExport(user, { ...filters, format });
  expect(answer.status).toBe(202);
  expect(answer.body.format).toBe(format);
  const done = await waitForStatus(user, (st) => st.downloadable_file_status === "completed");
  expect(done.file!.format).toBe(format);
  const response = await download(user, done.downloadable_file!);
  expect(response.status).toBe(200);
  return { done, response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** A read cell as the CSV shows it: the export's text for the same value. */
function asCsvText(cell: ReadCell | undefined, column: string, timeZone: string): string {
  if (cell === undefined) return "";
  if (cell.type === "boolean") return String(cell.value);
  if (cell.type === "number") {
    if (column === "id") return String(cell.value);
    const shown = fromSerial(cell.value);
    if (column === "travel_date") return shown.toISOString().slice(0, 10);
    return shown.toISOString().slice(0, 23); // the console's clock: compared with `clockOf` below
  }
  if (cell.type === "inlineStr" || cell.type === "shared") return cell.value;
  throw new Error(`unexpected cell ${JSON.stringify(cell)} in ${column} (${timeZone})`);
}

/** An instant as the console's clock shows it, ISO-like without a zone. */
function clockOf(iso: string, timeZone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" })
      .formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}.${iso.slice(20, 23)}`;
}

for (const kind of testDbKinds()) {
  for (const files of FILES_KINDS) {
    describe(`XLSX export (${kind}, ${files})`, () => {
      let s: ExportSuite;
      const q = async <T,>(text: string) => (await connection()).query<T>(text);
      beforeAll(async () => {
        s = await openExportSuite(kind, ROWS, files);
        // Hostile values straight into the table, as a database restored from elsewhere may hold them.
        for (const [i, value] of HOSTILE.entries()) {
          await s.database.prisma.$executeRawUnsafe(
            `UPDATE subscribers SET first_name = $1, last_name = $2, email = $3 WHERE id = $4`, value, value.slice(0, 200), `${value.slice(0, 40)}@x.test`, i + 1);
        }
        await startJobWorker();
      });
      afterAll(() => closeExportSuite(s));

      it("writes the same rows as the CSV, typed, through the same job, and names the format everywhere", async () => {
        const filters = { subscription_status: "active" };
        const csv = await exportAs(s.staff, "csv", filters);
        const csvRows = parseCsv(csv.bytes.toString("utf8"));
        const xlsx = await exportAs(s.staff, "xlsx", filters);
        expect(xlsx.response.headers.get("content-type")).toBe(XLSX_TYPE);
        expect(xlsx.response.headers.get("content-disposition")).toMatch(/^attachment; filename="subscribers-\d{8}-\d{4}\.xlsx"$/);
        expect(xlsx.done.file!.filename).toMatch(/^subscribers-\d{8}-\d{4}\.xlsx$/);
        expect(xlsx.done.file!.rows).toBe(csvRows.length - 1);

        const { sheets } = await readXlsx(xlsx.bytes);
        expect(sheets.map((sh) => sh.name)).toEqual(["Subscribers"]);
        const [header, ...rows] = sheets[0]!.rows;
        expect(header!.map((c) => (c as { value: string }).value)).toEqual(csvRows[0]);
        expect(rows).toHaveLength(csvRows.length - 1);
        expect(sheets[0]!.formulas).toBe(0);
        const timeZone = config().CONSOLE_TIME_ZONE;
        for (const [r, row] of rows.entries()) {
          const expected = csvRows[r + 1]!.map((v, i) => {
            const plain = unneutralised(v);
            return EXPORT_COLUMNS[i] === "created_at" ? clockOf(plain, timeZone) : plain;
          });
          expect(EXPORT_COLUMNS.map((c, i) => asCsvText(row[i], c, timeZone)), `row ${r + 1}`).toEqual(expected);
          for (const i of [0, 7, 12]) if (row[i]) expect(row[i]!.type).toBe("number");
          for (const i of [10, 11]) expect(row[i]!.type).toBe("boolean");
          for (const i of [1, 2, 5, 6, 9]) expect(row[i]!.type).toBe("inlineStr");
        }
        // Both files came from one job kind, and the audit log says which format each was.
        const audits = await s.database.prisma.auditEvent.findMany({ where: { action: "export.request", actor_id: s.staff.id }, orderBy: { id: "asc" } });
        expect(audits.map((a) => (a.after as { format: string }).format)).toEqual(["csv", "xlsx"]);
        expect(await q<{ kind: string }>(`SELECT DISTINCT data->>'kind' AS kind FROM pgboss.job WHERE name = 'console-job'`)).toEqual([{ kind: "export" }]);
      });

      it("reads back every hostile value exactly, cell by cell", async () => {
        const { bytes } = await exportAs(s.admin, "xlsx");
        const { sheets } = await readXlsx(bytes);
        const data = sheets[0]!.rows.slice(1);
        const stored = await q<{ id: number; first_name: string; last_name: string; email: string }>(
          `SELECT id, first_name, last_name, email FROM subscribers WHERE id <= ${HOSTILE.length} ORDER BY id`);
        expect(stored.map((r) => r.first_name)).toEqual(HOSTILE);
        for (const r of stored) {
          const row = data.find((cells) => (cells[0] as { value: number }).value === r.id)!;
          expect(row[1], `first_name of ${r.id}`).toEqual({ type: "inlineStr", value: r.first_name });
          expect(row[2], `last_name of ${r.id}`).toEqual({ type: "inlineStr", value: r.last_name });
          expect(row[5], `email of ${r.id}`).toEqual({ type: "inlineStr", value: r.email });
        }
        expect(sheets[0]!.formulas).toBe(0);
      });

      it("takes the format from the query string beside a body's filters; refuses a bad or doubled one", async () => {
        const post = async (query: string, json?: unknown) => {
          actAs(s.staff);
          const response = await exportPOST(apiRequest(`/api/v1/subscribers/export${query}`, { method: "POST", ...(json ? { json } : {}) }), {});
          return { status: response.status, body: (await response.json()) as { format?: string; error?: { message: string; fields?: Record<string, string[]> } } };
        };
        const bad = await post("?format=pdf");
        expect(bad.status).toBe(400);
        expect(bad.body.error!.fields).toHaveProperty("format");
        expect((await post("?format=xlsx&format=csv")).status).toBe(400);
        expect((await post("?format=xlsx", { format: "csv" })).status).toBe(400);
        expect((await post("", { format: ["xlsx"] })).status).toBe(400);
        expect((await post("?email=a", { format: "xlsx" })).status).toBe(400); // filters in both places
        const ok = await post("?format=xlsx", { is_mandatory: "true" });
        expect(ok.status).toBe(202);
        expect(ok.body.format).toBe("xlsx");
        await waitForStatus(s.staff, (st) => st.downloadable_file_status === "completed");
        const [row] = await q<{ format: string; filters: unknown }>(`SELECT format::text AS format, filters FROM subscriber_exports WHERE user_id = ${s.staff.id} ORDER BY created_at DESC LIMIT 1`);
        expect(row).toEqual({ format: "xlsx", filters: { is_mandatory: "true" } });
      });

      it("imports back unchanged through the console's import", async () => {
        // Real mobiles (the seeded ones are not numbers a country gives out), and formula-like
        // names the import's text rule allows.
        await q(`UPDATE subscribers SET mobile = '+4479111' || lpad(id::text, 5, '0') WHERE last_name LIKE 'Last3%'`);
        await q(`UPDATE subscribers SET first_name = '=1+2', last_name = '@Last3' || id WHERE last_name LIKE 'Last3%' AND id % 5 = 0`);
        // Text a spreadsheet could take for something else, or that the file must escape: read back as typed.
        await q(`UPDATE subscribers SET first_name = '-5', last_name = '+Last3' || id WHERE last_name LIKE 'Last3%' AND id % 5 = 1`);
        await q(`UPDATE subscribers SET first_name = '_x0041_ and _x005F_', last_name = 'مرحبا Last3' || id WHERE last_name LIKE 'Last3%' AND id % 5 = 2`);
        await q(`UPDATE subscribers SET first_name = '<b>R&D</b>', last_name = 'Last3 ' || id || ' \u200Fעברית' WHERE last_name LIKE 'Last3%' AND id % 5 = 3`);
        // The import's text rule refuses control characters (a line break) in a name, whatever the file's format.
        await q(`UPDATE subscribers SET first_name = 'First' || id WHERE last_name LIKE 'Last3%' AND first_name ~ '[[:cntrl:]]' AND first_name NOT LIKE E'\\t%'`);
        const { bytes } = await exportAs(s.staff, "xlsx", { last_name: "Last3" });
        const fields = `s.first_name, s.last_name, lower(s.email) AS email, s.mobile, s.branch_id, s.country_id, s.travel_date::text AS travel_date,
          sh.name AS sheet, s.subscription_status::text AS status, s.is_mandatory`;
        const originals = await q<Record<string, unknown>>(
          `SELECT ${fields} FROM subscribers s LEFT JOIN sheets sh ON sh.id = s.sheet_id WHERE s.last_name ILIKE '%Last3%' ORDER BY s.id`);
        expect(originals.length).toBeGreaterThan(10);
        const [{ max }] = (await q<{ max: number }>(`SELECT max(id)::int AS max FROM subscribers`)) as [{ max: number }];

        const form = new FormData();
        form.set("file", new Blob([bytes]), "export.xlsx");
        actAs(s.staff);
        const created = (await (await importPOST(new Request("http://localhost/api/v1/subscribers/imports", { method: "POST", body: form }), {})).json()) as ImportStatus;
        let done: ImportStatus = created;
        for (const end = Date.now() + 60_000; done.status !== "completed" && done.status !== "failed" && Date.now() < end; ) {
          await new Promise((r) => setTimeout(r, 200));
          actAs(s.staff);
          done = (await (await importGET(new Request(`http://localhost/api/v1/subscribers/imports/${created.id}`), routeContext({ id: created.id }))).json()) as ImportStatus;
        }
        expect(done, JSON.stringify([done.rejected_by_reason, done.preview?.filter((p) => Object.keys(p.errors).length)])).toMatchObject({ status: "completed", format: "xlsx", imported_rows: originals.length, rejected_rows: 0 });
        const imported = await q<Record<string, unknown>>(
          `SELECT ${fields} FROM subscribers s LEFT JOIN sheets sh ON sh.id = s.sheet_id WHERE s.id > ${max} ORDER BY s.id`);
        // As the import's rules say: rows without a sheet go to one named after the file, names are trimmed.
        const trim = (v: unknown) => String(v).trim();
        expect(imported).toEqual(originals.map((o) => ({ ...o, first_name: trim(o.first_name), last_name: trim(o.last_name), sheet: o.sheet ?? "export" })));
      });
    });
  }
}
