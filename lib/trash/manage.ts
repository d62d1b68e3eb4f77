import "server-only";
import type { SessionUser } from "@/lib/auth/permissions";
import { EVERY_BRANCH } from "@/lib/auth/scope";
import { serializeBranch } from "@/lib/branches/queries";
import { sql } from "@/lib/db/sql";
import { subscriberNotInTrash } from "./refusals";
import { withdrawExportsHolding } from "@/lib/export/purge";
import { findSubscriber, serializeRecord, type SubscriberRecordBody } from "@/lib/subscribers/record";
import { eraseBranch, restoreBranch } from "./branches";
import type { TrashKind } from "./filters";
import { eraseSubscribers, restoreSubscribers } from "./subscribers";
import { transaction } from "@/lib/db/transaction";

// What /trash and /api/v1/trash do to one record (admins: the caller's guard), audited in the
// transaction of the change (docs/decisions/0031-trash.md).

/** A trashed subscriber back among the subscribers, its duplicate flags decided again: its record. */
export async function restoreTrashedSubscriber(id: number, actor: SessionUser): Promise<SubscriberRecordBody> {
  return transaction(async (tx) => {
    const restored = await restoreSubscribers(tx, [id]);
    if (restored.length === 0) throw subscriberNotInTrash();
    const record = serializeRecord((await findSubscriber(EVERY_BRANCH, id, tx))!);
    await tx.audit({ action: "subscriber.restore", actor, entity: "subscriber", entityId: id, after: record });
    return record;
  });
}

/** Restores a trashed record of either kind: the record as GET answers it; 404 unless in the trash, 409 when a rule forbids it. */
export async function restoreFromTrash(kind: TrashKind, id: number, actor: SessionUser): Promise<Record<string, unknown>> {
  if (kind === "subscribers") return restoreTrashedSubscriber(id, actor);
  return serializeBranch(await restoreBranch(id, actor));
}

/** Erases a trashed record for good (and what must not outlive it); 404 unless in the trash. */
export async function eraseFromTrash(kind: TrashKind, id: number, actor: SessionUser | null): Promise<void> {
  if (kind === "branches") {
    await eraseBranch(id, actor);
    return;
  }
  const deletedAt = await transaction(async (tx) => {
    const [row] = await tx.query<{ deleted_at: Date }>(sql`SELECT deleted_at FROM subscriber_trash WHERE id = ${id} FOR UPDATE`);
    if (!row || (await eraseSubscribers(tx, [id])).length === 0) throw subscriberNotInTrash();
    await tx.audit({ action: "subscriber.erase", actor, entity: "subscriber", entityId: id, after: { id, erased: true } });
    return row.deleted_at;
  });
  await withdrawExportsHolding([id], deletedAt);
}
