import { catalogue } from "@/lib/i18n/catalogues";
import type { Locale } from "@/lib/i18n/locales";
import { LIST, listOf, problem, readProblem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { fieldLabel, IMPORT_FIELDS, labelField } from "@/lib/subscribers/fields";

// An import's messages are problem keys (`problems.imports.*`), kept as such in the database (a
// preview's cell errors, the reasons rows were rejected, a failure) and put into words where they
// are shown: the console's pages in the reader's language, the API, its webhooks and the rejected
// rows' CSV in English (docs/decisions/0048-languages.md), but for a failure's `error`, which the
// API says in its answer's language as it does every job's. Some values are words themselves, put
// into words with the message: `field` a field's label, `fields` a list of them, `column`,
// `columns` and `other` columns as quoted (a column without a name by its number), `problems`
// other problems (listOf), each put into words.

export { LIST, listOf } from "@/lib/i18n/problem";

export type Words = (text: string) => string;

/** The values put into words with their message. */
export const WORDED_VALUES = ["field", "fields", "column", "columns", "other", "problems"];

const made = new Map<Locale, Words>();

/** An import's messages put into words in `locale`; text that is no problem key (an old import's) stays as it is. */
export function importWordsIn(locale: Locale): Words {
  const known = made.get(locale);
  if (known) return known;
  const words = problemsIn(locale);
  const labels = catalogue(locale).fields as Record<string, string>;
  // Field names are the catalogue's keys through the field catalogue (`first_name` is `fields.firstName`).
  const label = (f: string) => labelField((key) => labels[key.slice("fields.".length)] ?? fieldLabel(f), f);
  const separator = locale === "ar" ? "، " : ", ";
  const column = (c: string) => (/^\d+$/.test(c) ? words(problem("imports.unnamedColumn", { number: Number(c) })) : c);
  const say: Words = (text) => {
    const p = readProblem(text);
    if (!p?.values) return words(text);
    const v = { ...p.values };
    if (typeof v.field === "string") v.field = label(v.field);
    for (const k of ["column", "columns", "other"]) if (typeof v[k] === "string") v[k] = (v[k] as string).split(LIST).map(column).join(separator);
    if (typeof v.problems === "string") v.problems = v.problems.split(LIST).map(say).join(" ");
    return words(`${p.key} ${JSON.stringify(v)}`);
  };
  made.set(locale, say);
  return say;
}

/** The words of the API, its webhooks, the audit and the rejected rows' CSV: English, as they always were. */
export const english: Words = (text) => importWordsIn("en")(text);

/** One message for several problems: the problem itself when it is one, else one problem listing them, each said in the reader's words. */
export const oneMessage = (problems: readonly string[]): string => (problems.length === 1 ? problems[0]! : problem("imports.severalProblems", { problems: listOf(problems) }));

/** What a rejected row counts under: its first bad cell's field and problem, the cell's own text (`value`) left out so that rows count together. */
export function reasonOf(field: string | null, message: string): string {
  const p = readProblem(message);
  const masked = p?.values && "value" in p.values ? `${p.key} ${JSON.stringify({ ...p.values, value: "…" })}` : p ? message : message.replace(/"[^"]*"/g, "…");
  return field ? `${field}: ${masked}` : masked;
}

/** A reason's field (null: the whole row) and its problem. */
export function readReason(reason: string): { field: string | null; message: string } {
  const m = /^([a-z_]+): (.*)$/s.exec(reason);
  return m && (IMPORT_FIELDS as readonly string[]).includes(m[1]!) ? { field: m[1]!, message: m[2]! } : { field: null, message: reason };
}

/** A reason in English words, as the API has always said it (the field's name, quoted text left out). */
export function englishReason(reason: string): string {
  const { field, message } = readReason(reason);
  const text = english(message).replace(/"[^"]*"/g, "…");
  return field ? `${field}: ${text}` : text;
}
