// Which field each column fills: headers matched loosely, with synonyms, under the user's own
// choices. SPEC.md's names match as they are, so an export imports back with no mapping.

import { problem } from "@/lib/i18n/problem";
import { IMPORT_FIELDS, type ImportField } from "@/lib/subscribers/fields";
import { english, listOf } from "./words";

export { IMPORT_FIELDS, type ImportField };

/** Fields every row must have a column for. */
export const REQUIRED_FIELDS: readonly ImportField[] = ["first_name", "last_name", "email", "mobile"];

/** Columns of the export that the server decides: never imported, not "unknown" either. */
export const SERVER_COLUMNS = new Set(["id", "isduplicate", "createdat", "updatedat"]);

/** Lower-case letters and digits only: "E-mail", "e_mail " and "EMAIL" are one key. */
export const headerKey = (header: string) => header.normalize("NFKD").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

const SYNONYMS: Record<ImportField, string[]> = {
  first_name: ["firstname", "first", "givenname", "forename", "name1", "prenom", "vorname"],
  last_name: ["lastname", "last", "surname", "familyname", "name2", "nom", "nachname"],
  email: ["email", "emailaddress", "mail", "emailid"],
  mobile: ["mobile", "mobilenumber", "mobilephone", "phone", "phonenumber", "cell", "cellphone", "telephone", "tel", "msisdn"],
  branch_name: ["branchname", "branch", "office", "agency"],
  country_name: ["countryname", "country", "countrycode", "nation"],
  travel_date: ["traveldate", "travel", "departuredate", "departure", "dateoftravel"],
  sheet: ["sheet", "sheetname", "list", "source", "campaign"],
  subscription_status: ["subscriptionstatus", "status", "subscription"],
  is_mandatory: ["ismandatory", "mandatory", "required", "compulsory"],
};

const BY_KEY = new Map<string, ImportField>(IMPORT_FIELDS.flatMap((f) => SYNONYMS[f].map((k) => [k, f] as const)));

/** A field for each header (null: ignored), each field used at most once (the first column wins). */
export function autoMapping(headers: string[]): (ImportField | null)[] {
  const used = new Set<ImportField>();
  return headers.map((h) => {
    const field = BY_KEY.get(headerKey(h)) ?? null;
    if (!field || used.has(field)) return null;
    used.add(field);
    return field;
  });
}

/** `{"file column": "field" | null}` (the API's and the page's) over the automatic mapping; its problems as problem keys. */
export function mappingOf(headers: string[], given: Record<string, string | null> | null): { mapping: (ImportField | null)[]; problems: string[] } {
  const auto = autoMapping(headers);
  if (!given) return { mapping: auto, problems: [] };
  const problems: string[] = [];
  const known = new Set(headers);
  for (const [column, field] of Object.entries(given)) {
    if (!known.has(column)) problems.push(problem("imports.mappingUnknownColumn", { name: column.slice(0, 60) }));
    if (field !== null && field !== "" && !(IMPORT_FIELDS as readonly string[]).includes(field)) {
      problems.push(problem("imports.mappingNotField", { value: String(field).slice(0, 40), names: IMPORT_FIELDS.join(", ") }));
    }
  }
  const mapping = headers.map((h, i) => (Object.hasOwn(given, h) ? ((given[h] || null) as ImportField | null) : auto[i]!));
  return { mapping, problems };
}

/** `mappingOf` with its problems in English words. */
export function applyMapping(headers: string[], given: Record<string, string | null> | null): { mapping: (ImportField | null)[]; problems: string[] } {
  const { mapping, problems } = mappingOf(headers, given);
  return { mapping, problems: problems.map(english) };
}

/** The mapping for another worksheet's header: its automatic mapping, with the user's explicit choices kept for same-named columns (no field filled twice). */
export function remapForHeaders(previous: { headers: string[]; mapping: (ImportField | null)[] }, headers: string[]): (ImportField | null)[] {
  const before = autoMapping(previous.headers);
  const explicit = new Map<string, ImportField | null>();
  previous.headers.forEach((h, i) => {
    const chosen = previous.mapping[i] ?? null;
    if (chosen !== before[i] && !explicit.has(h)) explicit.set(h, chosen);
  });
  const kept = headers.map((h) => explicit.has(h));
  const taken = new Set(headers.flatMap((h, i) => (kept[i] && explicit.get(h) ? [explicit.get(h)!] : [])));
  return autoMapping(headers).map((auto, i) => (kept[i] ? explicit.get(headers[i]!)! : auto && taken.has(auto) ? null : auto));
}

/** What is wrong with the header row itself: none, or two columns of one name. */
function headerNameProblems(headers: string[]): string[] {
  if (headers.length === 0 || headers.every((h) => h.trim() === "")) return [problem("imports.noHeader")];
  const seen = new Map<string, number>();
  headers.forEach((h) => seen.set(h.trim().toLowerCase(), (seen.get(h.trim().toLowerCase()) ?? 0) + 1));
  const twice = [...seen].filter(([h, n]) => n > 1 && h !== "").map(([h]) => `"${h}"`);
  return twice.length ? [problem("imports.sameName", { names: twice.join(", ") })] : [];
}

/** What stops an import before any row is read, as problem keys: duplicate headers, a field twice, a required field missing. */
export function headerProblemKeys(headers: string[], mapping: (ImportField | null)[]): string[] {
  const problems = headerNameProblems(headers);
  if (headers.length === 0 || headers.every((h) => h.trim() === "")) return problems;
  const counts = new Map<ImportField, number>();
  for (const f of mapping) if (f) counts.set(f, (counts.get(f) ?? 0) + 1);
  for (const [f, n] of counts) if (n > 1) problems.push(problem("imports.filledTwice", { field: f, count: n }));
  const missing = REQUIRED_FIELDS.filter((f) => !counts.has(f));
  if (missing.length) problems.push(problem("imports.requiredMissing", { fields: listOf(missing), count: missing.length }));
  return problems;
}

/** `headerProblemKeys` in English words. */
export const headerProblems = (headers: string[], mapping: (ImportField | null)[]): string[] => headerProblemKeys(headers, mapping).map(english);

/** What no mapping can mend (the file itself must change), as problem keys: the header's own problems, or fewer columns than required fields. */
export function unmappableHeader(headers: string[]): string[] {
  const problems = headerNameProblems(headers);
  if (problems.length === 0 && headers.length < REQUIRED_FIELDS.length) {
    problems.push(problem("imports.tooFewColumns", { count: headers.length, fields: listOf(REQUIRED_FIELDS) }));
  }
  return problems;
}

/** Warnings as problem keys (never blocking): columns not imported, server columns aside, and ones shadowed by a column filling the same field. */
export function headerWarningKeys(headers: string[], mapping: (ImportField | null)[]): string[] {
  const filledBy = new Map<ImportField, string>();
  headers.forEach((h, i) => {
    const f = mapping[i];
    if (f && !filledBy.has(f)) filledBy.set(f, h);
  });
  // A column by its quoted name, or by its number when it has none (lib/imports/words.ts).
  const quote = (h: string, i: number) => (h.trim() === "" ? String(i + 1) : `"${h.slice(0, 60)}"`);
  const unknown: string[] = [];
  const shadowed: string[] = [];
  headers.forEach((h, i) => {
    if (mapping[i] || SERVER_COLUMNS.has(headerKey(h))) return;
    const like = BY_KEY.get(headerKey(h));
    const other = like ? filledBy.get(like) : undefined;
    if (like && other !== undefined) shadowed.push(problem("imports.shadowed", { column: quote(h, i), field: like, other: quote(other, headers.indexOf(other)) }));
    else unknown.push(quote(h, i));
  });
  const warnings: string[] = [];
  if (unknown.length === 1) warnings.push(problem("imports.notImportedOne", { column: unknown[0]! }));
  if (unknown.length > 1) warnings.push(problem("imports.notImportedMany", { columns: listOf(unknown) }));
  return [...warnings, ...shadowed];
}

/** `headerWarningKeys` in English words. */
export const headerWarnings = (headers: string[], mapping: (ImportField | null)[]): string[] => headerWarningKeys(headers, mapping).map(english);

/** The template's header: SPEC.md's names of what an import fills. */
export const TEMPLATE_HEADER = IMPORT_FIELDS.join(",");
