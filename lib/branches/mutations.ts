import "server-only";
import type { Caller } from "@/lib/auth/principal";
import { branchesOf, subscribersOf } from "@/lib/auth/scope";
import { sql } from "@/lib/db/sql";
import { refusedWrite, transaction, type Tx } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { branchNotFound, serializeBranch, type BranchRow } from "./queries";

// Every change is written with its audit event in one transaction: both or neither.

const select = { id: true, name: true, created_at: true, updated_at: true } as const;
const liveBranch = (tx: Tx, id: number, actor: Caller) =>
  tx.query<BranchRow>(sql`SELECT b.id, b.name, b.created_at, b.updated_at FROM ${branchesOf(actor.scope)} b WHERE b.id = ${id}`);
// Names are unique regardless of case: the unique index on lower(name) decides.
const refused = refusedWrite("The branch", "name", problem("branches.nameTaken"));
const translate = (error: unknown): never => {
  try {
    return refused(error);
  } catch (refusal) {
    throw AppError.is(refusal) && refusal.status === 404 ? branchNotFound() : refusal;
  }
};

export async function createBranch(name: string, actor: Caller): Promise<BranchRow> {
  return transaction(async (tx) => {
    const branch = await tx.branch.create({ data: { name }, select });
    await tx.audit({ action: "branch.create", actor, entity: "branch", entityId: branch.id, after: serializeBranch(branch) });
    return branch;
  }).catch(translate);
}

export async function updateBranch(id: number, name: string, actor: Caller): Promise<BranchRow> {
  return transaction(async (tx) => {
    const [before] = await liveBranch(tx, id, actor);
    if (!before) throw branchNotFound();
    // Still live when written: a deletion committed since the read leaves nothing to rename (404).
    // eslint-disable-next-line console/scoped-sources -- the branch just read through branchesOf, if still live.
    const branch = await tx.branch.update({ where: { id, deleted_at: null }, data: { name }, select });
    await tx.audit({
      action: "branch.update",
      actor,
      entity: "branch",
      entityId: id,
      before: serializeBranch(before),
      after: serializeBranch(branch),
    });
    return branch;
  }).catch(translate);
}

/**
 * Moves a branch to the trash: one row changes; its subscribers keep their link and show no branch
 * while it is there (docs/decisions/0031-trash.md).
 */
export async function deleteBranch(id: number, actor: Caller): Promise<{ name: string; detached: number }> {
  return transaction(async (tx) => {
    const [before] = await liveBranch(tx, id, actor);
    if (!before) throw branchNotFound();
    const [count] = await tx.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${subscribersOf(actor.scope)} s WHERE s.branch_id = ${id}`);
    const detached = count?.n ?? 0;
    // Conditional, so two deletions at once trash it once.
    // eslint-disable-next-line console/scoped-sources -- the branch just read through branchesOf, if still live.
    const moved = await tx.branch.updateMany({ where: { id, deleted_at: null }, data: { deleted_at: new Date(), deleted_by: actor.id } });
    if (moved.count === 0) throw branchNotFound();
    await tx.audit({
      action: "branch.delete",
      actor,
      entity: "branch",
      entityId: id,
      before: { ...serializeBranch(before), subscribers_detached: detached },
    });
    return { name: before.name, detached };
  }).catch(translate);
}
