import { normaliseMobile } from "@/lib/subscribers/phone";
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "@/lib/subscribers/filters";
import type { SubscriberValues } from "@/lib/subscribers/schema";
import { isCalendarDay, isDayInRange } from "@/lib/validation/common";
import { unsafeTextProblems } from "@/lib/validation/text";
import { problem } from "@/lib/i18n/problem";
import type { ImportField } from "./fields";
import { english, reasonOf as reasonFor } from "./words";

// One imported row checked cell by cell by the creation form's rules, each bad cell saying why. Pure, so property-tested.

/** A cell as a reader gives it: text (CSV), or what a spreadsheet stores (numbers, dates, booleans). */
export type Cell = string | number | boolean | Date | null;

export type Lookups = {
  /** lower(branch name) → id, of the importing user's scope only */
  branches: Map<string, number>;
  /** Whether the user is limited to some branches: then every row needs one of `branches`. */
  scoped?: boolean;
  /** lower(country name) and lower(code) → { id, code } */
  countries: Map<string, { id: number; code: string }>;
};

/** The creation form's values, the sheet by its name. */
export type CheckedRow = Omit<SubscriberValues, "sheet_name"> & { sheet: string | null };

/** The reason of a row outside the importing user's branches (docs/API.md). */
export const BRANCH_OUT_OF_SCOPE = "branch_out_of_scope";

/** A bad cell: its problem key (lib/imports/words.ts) and the same in English words. */
export type CellError = { field: ImportField; problem: string; message: string };
export type RowResult = { ok: true; row: CheckedRow } | { ok: false; errors: CellError[] };

const EMAIL = /^[^\s@"(),:;<>[\\\]]+@[^\s@"(),:;<>[\\\]]+\.[^\s@"(),:;<>[\\\]]+$/;
const SCIENTIFIC = /^[+-]?\d+(\.\d+)?[eE][+-]?\d+$/;

/** A cell as trimmed text ("" for empty). Numbers keep their digits; dates are days. */
export function cellText(cell: Cell): string {
  if (cell === null || cell === undefined) return "";
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? "" : cell.toISOString().slice(0, 10);
  return String(cell).trim();
}

// The English words only when read (the rejected rows' CSV, a test): a preview of many bad rows does not make them.
const refused = (p: string) => ({
  problem: p,
  get error() {
    return english(p);
  },
});
const cellError = (field: ImportField, p: string): CellError => ({
  field,
  problem: p,
  get message() {
    return english(p);
  },
});
const OUT_OF_RANGE = problem("imports.dateOutOfRange");

const pad = (n: number) => String(n).padStart(2, "0");

/** Excel's day 1 is 1900-01-01, with its 1900 leap-year bug: serial 60 is a day that never was. */
export function excelSerialDay(serial: number): string | null {
  if (!Number.isFinite(serial) || serial < 1 || serial > 2958465 || serial === 60) return null;
  const days = Math.floor(serial) - (serial > 60 ? 1 : 0);
  const d = new Date(Date.UTC(1899, 11, 31) + days * 86_400_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** A travel date: ISO; D/M/YYYY or M/D/YYYY only when one reading alone is a date; an Excel serial; a spreadsheet date. */
export function parseDay(cell: Cell): { day: string } | { error: string; problem: string } {
  if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) return refused(problem("imports.dateUnreadable"));
    const day = `${cell.getUTCFullYear()}-${pad(cell.getUTCMonth() + 1)}-${pad(cell.getUTCDate())}`;
    return isDayInRange(day) ? { day } : refused(OUT_OF_RANGE);
  }
  const text = cellText(cell);
  if (typeof cell === "number" || /^\d{1,6}(\.\d+)?$/.test(text)) {
    const day = excelSerialDay(Number(text));
    return day && isDayInRange(day) ? { day } : refused(problem("imports.notSerialDate"));
  }
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (iso) {
    const day = `${iso[1]}-${pad(Number(iso[2]))}-${pad(Number(iso[3]))}`;
    if (!isCalendarDay(day)) return refused(problem("imports.noSuchDate"));
    return isDayInRange(day) ? { day } : refused(OUT_OF_RANGE);
  }
  const other = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (other) {
    const [a, b, y] = [Number(other[1]), Number(other[2]), other[3]];
    const dayFirst = `${y}-${pad(b)}-${pad(a)}`;
    const monthFirst = `${y}-${pad(a)}-${pad(b)}`;
    const readings = [...new Set([dayFirst, monthFirst].filter(isCalendarDay))];
    if (readings.length === 0) return refused(problem("imports.noSuchDate"));
    if (readings.length > 1) return refused(problem("imports.twoDates", { value: text }));
    return isDayInRange(readings[0]!) ? { day: readings[0]! } : refused(OUT_OF_RANGE);
  }
  return refused(problem("imports.dateFormat"));
}

const YES = new Set(["true", "yes", "y", "1", "x", "mandatory"]);
const NO = new Set(["false", "no", "n", "0", ""]);

function nameProblem(value: string, which: "first" | "last"): string | null {
  if (!value) return problem(which === "first" ? "imports.firstNameEmpty" : "imports.lastNameEmpty");
  if (value.length > 100) return problem(which === "first" ? "imports.firstNameLong" : "imports.lastNameLong");
  return unsafeTextProblems(value)[0] ?? null;
}

/** Checks one row (`values` by field; fields without a column are absent). */
export function checkRow(values: Partial<Record<ImportField, Cell>>, lookups: Lookups): RowResult {
  const errors: CellError[] = [];
  const text = (f: ImportField) => cellText(values[f] ?? null);
  const fail = (field: ImportField, p: string) => errors.push(cellError(field, p));

  const first = text("first_name");
  const last = text("last_name");
  const firstProblem = nameProblem(first, "first");
  if (firstProblem) fail("first_name", firstProblem);
  const lastProblem = nameProblem(last, "last");
  if (lastProblem) fail("last_name", lastProblem);

  const email = text("email");
  if (!email) fail("email", problem("imports.emailEmpty"));
  else if (email.length > 254 || !EMAIL.test(email)) fail("email", problem("imports.notEmail"));

  let country: { id: number; code: string } | null = null;
  const countryText = text("country_name");
  if (countryText) {
    country = lookups.countries.get(countryText.toLowerCase()) ?? null;
    if (!country) fail("country_name", problem("imports.noCountry", { value: countryText.slice(0, 60) }));
  }

  let mobile = "";
  const rawMobile = values.mobile;
  const mobileText = text("mobile");
  if (!mobileText) fail("mobile", problem("imports.mobileEmpty"));
  else if (SCIENTIFIC.test(mobileText) || (typeof rawMobile === "number" && !Number.isInteger(rawMobile))) {
    fail("mobile", problem("imports.mobileShortened", { value: mobileText }));
  } else {
    const parsed = normaliseMobile(mobileText, country?.code);
    if (parsed.ok) mobile = parsed.e164;
    else fail("mobile", parsed.message);
  }

  let branch: number | null = null;
  const branchText = text("branch_name");
  if (branchText) branch = lookups.branches.get(branchText.toLowerCase()) ?? null;
  // A scoped user learns nothing of other branches: unknown or another's, the same answer.
  if (lookups.scoped && branch === null) fail("branch_name", problem("imports.branchOutOfScope"));
  else if (branchText && branch === null) fail("branch_name", problem("imports.noBranch", { value: branchText.slice(0, 60) }));

  let travel: string | null = null;
  if (values.travel_date !== undefined && cellText(values.travel_date) !== "") {
    const parsed = parseDay(values.travel_date);
    if ("day" in parsed) travel = parsed.day;
    else fail("travel_date", parsed.problem);
  }

  const sheet = text("sheet") || null;
  if (sheet) {
    const refusal = sheet.length > 100 ? problem("imports.sheetLong") : unsafeTextProblems(sheet)[0];
    if (refusal) fail("sheet", refusal);
  }

  const statusText = text("subscription_status").toLowerCase();
  let status: SubscriptionStatus = "pending";
  if (statusText) {
    if ((SUBSCRIPTION_STATUSES as readonly string[]).includes(statusText)) status = statusText as SubscriptionStatus;
    else fail("subscription_status", problem("imports.notStatus", { value: statusText.slice(0, 30), statuses: SUBSCRIPTION_STATUSES.join(", ") }));
  }

  let mandatory = false;
  const raw = values.is_mandatory;
  if (typeof raw === "boolean") mandatory = raw;
  else {
    const m = text("is_mandatory").toLowerCase();
    if (YES.has(m)) mandatory = true;
    else if (!NO.has(m)) fail("is_mandatory", problem("imports.notYesNo", { value: m.slice(0, 20) }));
  }

  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    row: { first_name: first, last_name: last, email, mobile, branch_id: branch, country_id: country?.id ?? null, travel_date: travel, sheet, subscription_status: status, is_mandatory: mandatory },
  };
}

/** The reason counted in "rejected, by reason": the first bad cell's field and its problem, the cell's text left out (lib/imports/words.ts). */
export const reasonOf = (errors: CellError[]) => reasonFor(errors[0]!.field, errors[0]!.problem);
