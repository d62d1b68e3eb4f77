import { empty, join, sql, type Statement } from "@/lib/db/sql";

/** A LIKE pattern that matches `text` anywhere, with the user's %, _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `column` contains `text`, case-insensitively. A text with no letter that has a case (digits,
 * punctuation, emoji…) is matched with LIKE: the same rows (ILIKE lowercases both sides, which
 * changes no such character) for far less CPU, since ILIKE lowercases every value it reads.
 */
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

/**
 * Whether a trigram (pg_trgm GIN) index can find the values containing `text`: only when it has
 * a run of at least 3 letters or digits (one or two letters, punctuation and emoji have no
 * trigram, and such a filter reads every row).
 */
export function trigramServes(text: string): boolean {
  return /[\p{L}\p{N}]{3}/u.test(text);
}

/** `WHERE a AND b …`, or nothing. */
export function whereClause(conditions: Statement[]): Statement {
  return conditions.length ? sql`WHERE ${join(conditions, " AND ")}` : empty;
}

export const direction = (dir: "asc" | "desc") => (dir === "asc" ? sql`ASC` : sql`DESC`);
