import "server-only";
import { connection, sql } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { config } from "@/lib/config";
import { storage } from "@/lib/storage";
import { rejectedKey, sourceKey } from "./source";

// Imports, their files and rejected rows go EXPORT_RETENTION_HOURS after their last change, with
// orphaned staging rows and files. Unstarted previews go after IMPORT_PREVIEW_RETENTION_HOURS
// (they hold quota), including ones stuck `running` because their server stopped mid-request.
// A queued or running import is its job's to finish or fail.

const STRAY_AFTER_MS = 60 * 60 * 1000;

export async function purgeImports(now: Date = new Date()): Promise<{ purged: number; strays: number }> {
  const conn = await connection();
  const cutoff = new Date(now.getTime() - config().EXPORT_RETENTION_HOURS * 3600 * 1000);
  const previewCutoff = new Date(now.getTime() - config().IMPORT_PREVIEW_RETENTION_HOURS * 3600 * 1000);
  const purged = await transaction(async (tx) => {
    const gone = await tx.query<{ id: string }>(sql`DELETE FROM subscriber_imports
      WHERE CASE WHEN dry_run THEN GREATEST(created_at, completed_at) < ${previewCutoff}
        ELSE status IN ('completed', 'failed') AND GREATEST(created_at, completed_at) < ${cutoff} END RETURNING id`);
    await tx.query(`DELETE FROM import_rows r WHERE NOT EXISTS (
      SELECT 1 FROM subscriber_imports i WHERE i.id = r.import_id AND i.status IN ('in_queue', 'running') AND i.attempt = r.attempt)`);
    return gone;
  }, { job: true });
  await storage().delete(purged.flatMap((r) => [sourceKey(r.id), rejectedKey(r.id)]));
  const known = new Set((await conn.query<{ id: string }>(`SELECT id FROM subscriber_imports`)).map((r) => r.id));
  const strays: string[] = [];
  for await (const entry of storage().list("imports/")) {
    const id = entry.key.slice("imports/".length).split(".")[0]!;
    if (!known.has(id) && now.getTime() - entry.modifiedAt.getTime() > STRAY_AFTER_MS) strays.push(entry.key);
  }
  await storage().delete(strays);
  return { purged: purged.length, strays: strays.length };
}
