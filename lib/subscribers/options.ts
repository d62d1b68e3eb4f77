import "server-only";
import { prisma } from "@/lib/db/client";

// The choices the creation form offers. Hundreds of branches and sheets are fine to send whole;
// the form's combobox filters them as the user types.

type Option = { id: number; name: string };

export async function branchOptions(): Promise<Option[]> {
  return (await prisma()).branch.findMany({ select: { id: true, name: true }, orderBy: [{ name: "asc" }, { id: "asc" }] });
}

export async function sheetNames(limit = 500): Promise<string[]> {
  const sheets = await (await prisma()).sheet.findMany({ select: { name: true }, orderBy: { name: "asc" }, take: limit });
  return sheets.map((s) => s.name);
}
