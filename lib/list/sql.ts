import { empty, join, sql, type Statement } from "@/lib/db/sql";

/** A LIKE pattern that matches `text` anywhere, with the user's %, _ and \ taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `column` contains `text`, case ignored; caseless text uses LIKE, which finds the same rows for far less CPU than ILIKE. */
export function contains(column: Statement, text: string): Statement {
  return caseless(text)
    ? sql`${column} LIKE ${containsPattern(text)}`
    : sql`${column} ILIKE ${containsPattern(text)}`;
}

/** No character of `text` has a case, or is a combining mark (which lowercasing a letter can produce). */
export function caseless(text: string): boolean {
  for (const c of text) {
    if (c.toLowerCase() !== c || c.toUpperCase() !== c || /\p{M}/u.test(c)) return false;
  }
  return true;
}

/** Whether a trigram index can serve `text`: it needs a run of 3 letters or digits, else the filter reads every row. */
export const trigramServes = (text: string): boolean => /[\p{L}\p{N}]{3}/u.test(text);

/** `WHERE a AND b …` (a null, as an unscoped scopeCondition, left out), or nothing. */
export function whereClause(conditions: (Statement | null)[]): Statement {
  const c = conditions.filter((x) => x !== null);
  return c.length ? sql`WHERE ${join(c, " AND ")}` : empty;
}

export const direction = (dir: "asc" | "desc") => (dir === "asc" ? sql`ASC` : sql`DESC`);
