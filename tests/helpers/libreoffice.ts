import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// LibreOffice Calc, headless, as a reader of workbooks that shares no code with the console:
// it opens a file and saves it again (as XLSX, or each sheet as CSV) for the tests to compare.
// Debian's `libreoffice-calc-nogui` (.ci/run installs it). A test that needs it fails when it is
// missing: it is never skipped.

/** The LibreOffice binary on the PATH (Debian's is /usr/bin/soffice); throws with the command to install it when there is none. */
export function soffice(): string {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const p = path.join(dir, "soffice");
    if (dir && fs.existsSync(p)) return p;
  }
  throw new Error("LibreOffice is not installed, and this test opens the export with it: apt-get install libreoffice-calc-nogui (.ci/run installs it).");
}

/**
 * CSV of every sheet (LibreOffice's filter options, in order: comma, double quote, UTF-8, from
 * line 1, no column formats, default language, quoted fields not forced to text, special numbers
 * detected, cells as shown, no formulas, spaces kept, every sheet to a file of its own).
 */
const CSV_EVERY_SHEET = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1';
const XLSX = "xlsx:Calc MS Excel 2007 XML";

/**
 * Opens `file` (an .xlsx) in LibreOffice and saves it as `to`: the files written, by name
 * (for `csv`, one per sheet, named `<file>-<sheet>.csv`). Throws when LibreOffice cannot open it.
 */
export async function convertWithLibreOffice(file: Buffer, to: "xlsx" | "csv"): Promise<Map<string, Buffer>> {
  const binary = soffice();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "libreoffice-"));
  try {
    const input = path.join(dir, "in", "export.xlsx");
    const out = path.join(dir, "out");
    fs.mkdirSync(path.dirname(input));
    fs.writeFileSync(input, file);
    // A profile of its own: another LibreOffice running on the machine does not take the call over.
    const args = [
      `-env:UserInstallation=file://${path.join(dir, "profile")}`,
      "--headless", "--norestore", "--nolockcheck", "--nodefault",
      "--convert-to", to === "xlsx" ? XLSX : CSV_EVERY_SHEET, "--outdir", out, input,
    ];
    const { code, output } = await run(binary, args, 180_000);
    const files = fs.existsSync(out) ? fs.readdirSync(out) : [];
    if (code !== 0 || files.length === 0) throw new Error(`LibreOffice did not convert the workbook (exit ${code}):\n${output}`);
    return new Map(files.map((name) => [name, fs.readFileSync(path.join(out, name))]));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function run(binary: string, args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`LibreOffice took more than ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
