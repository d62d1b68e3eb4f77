import "server-only";
import { prisma } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { conflict, notFound } from "@/lib/errors";
import type { BranchRow } from "./queries";

const select = { id: true, name: true, created_at: true, updated_at: true } as const;
const TAKEN = { name: ["A branch with this name already exists."] };

function isUniqueViolation(error: unknown) {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}
function isMissing(error: unknown) {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2025";
}

/** Names are unique regardless of case: the database's unique index on lower(name) decides. */
export async function createBranch(name: string): Promise<BranchRow> {
  try {
    return await (await prisma()).branch.create({ data: { name }, select });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("A branch with this name already exists.", TAKEN);
    throw error;
  }
}

export async function updateBranch(id: number, name: string): Promise<BranchRow> {
  try {
    return await (await prisma()).branch.update({ where: { id }, data: { name }, select });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("A branch with this name already exists.", TAKEN);
    if (isMissing(error)) throw notFound("The branch");
    throw error;
  }
}

/** Deletes a branch; its subscribers keep existing with an empty branch (ON DELETE SET NULL). */
export async function deleteBranch(id: number): Promise<{ name: string; detached: number }> {
  const db = await prisma();
  return db.$transaction(async (tx) => {
    const detached = await tx.subscriber.count({ where: { branch_id: id } });
    try {
      const branch = await tx.branch.delete({ where: { id }, select: { name: true } });
      return { name: branch.name, detached };
    } catch (error) {
      if (isMissing(error)) throw notFound("The branch");
      throw error;
    }
  });
}
