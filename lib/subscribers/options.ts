import "server-only";
import type { BranchScope } from "@/lib/auth/scope";
import { branchFrom } from "@/lib/branches/where";
import { prisma } from "@/lib/db/client";
import { query, sql } from "@/lib/db/sql";

// The choices the creation form offers. Hundreds of branches and sheets are fine to send whole;
// the form's combobox filters them as the user types.

type Option = { id: number; name: string };

/** The branches the user may choose: their scope's. */
export async function branchOptions(scope: BranchScope): Promise<Option[]> {
  return query<Option>(sql`SELECT b.id, b.name ${branchFrom(scope, {})} ORDER BY b.name, b.id`);
}

export async function sheetNames(limit = 500): Promise<string[]> {
  const sheets = await (await prisma()).sheet.findMany({ select: { name: true }, orderBy: { name: "asc" }, take: limit });
  return sheets.map((s) => s.name);
}
