import { Prisma } from "@/lib/generated/prisma/client";

/** A LIKE pattern that matches `text` anywhere, with the user's %, _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `WHERE a AND b …`, or nothing. */
export function whereClause(conditions: Prisma.Sql[]): Prisma.Sql {
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}

export const direction = (dir: "asc" | "desc") => (dir === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`);
