import type { Messages } from "./catalogues";

// What lib code tells a person (a refused value, a conflict, a missing record) is a key of the
// `problems` catalogue and its values, carried as one string through zod issues, AppError, action
// results and API errors, and put into words where it is shown, in the reader's language
// (docs/decisions/0048-languages.md). Pure: client components read it too.

type Leaves<T, P extends string = ""> = { [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`> }[keyof T & string];
export type ProblemKey = Leaves<Messages["problems"]>;
export type ProblemValues = Record<string, string | number>;

/** The separator of a list value (`fields`, `columns`): each item is put into words where it is shown. */
export const LIST = "\u001f";
export const listOf = (items: readonly (string | number)[]) => items.map(String).join(LIST);

/** A problem as the string that travels: `key` or `key {"values":…}`. */
export const problem = (key: ProblemKey, values?: ProblemValues): string => (values ? `${key} ${JSON.stringify(values)}` : key);

const SHAPE = /^([a-z]\w*(?:\.\w+)+)(?: (\{.*\}))?$/s;

/** The key and values of a problem string; null for text that is not one (already words). */
export function readProblem(text: string): { key: string; values?: ProblemValues } | null {
  const [, key, values] = SHAPE.exec(text) ?? [];
  if (!key) return null;
  if (!values) return { key };
  try {
    return { key, values: JSON.parse(values) as ProblemValues };
  } catch {
    return null;
  }
}

/** Text stored within `max` characters: a problem string stays whole, as a cut one would no longer read (its free text is cut where it is made). */
export const cutText = (text: string, max: number): string => (readProblem(text) ? text : text.slice(0, max));

type Words = { has: (key: string) => boolean; (key: string, values?: ProblemValues): string };

/** Puts a problem into words with a translator of the `problems` namespace (`values`: its values as shown); other text stays as it is. */
export function problemWords(t: Words, text: string, values = (v?: ProblemValues) => v): string {
  const p = readProblem(text);
  if (!p || !t.has(p.key)) return text;
  // A failed job's `reason` is the error it died of, itself a problem when the console raised it (storage out of reach).
  const reason = p.values?.reason;
  return t(p.key, values(typeof reason === "string" ? { ...p.values, reason: problemWords(t, reason, values) } : p.values));
}

/** Every message of a refusal's fields put into words. */
export function fieldWords(fields: Record<string, string[]> | undefined, words: (text: string) => string): Record<string, string[]> | undefined {
  return fields && Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.map(words)]));
}
