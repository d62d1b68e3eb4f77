import "server-only";
import { connection, sql } from "@/lib/db/sql";
import { config } from "@/lib/config";
import { exportConfig } from "@/lib/export/config";
import { storage } from "@/lib/storage";
import { rejectedKey, sourceKey } from "./source";

// Imports are kept as long as exports (EXPORT_RETENTION_HOURS after their last change), then
// their row, their file and their rejected rows go; so do staging rows no running import owns
// (a failed one's, should any be left, or an attempt's that a newer attempt replaced) and files
// no import points at. A preview never started (a dry run) goes sooner, IMPORT_PREVIEW_RETENTION_HOURS
// after its last change: an abandoned one holds its user's quota and the disk. A dry run is
// made inside the request that asked for it, not by a job, so one whose server stopped
// mid-preview stays `running` with no process behind it: it goes at the same time. A queued or
// running import (not a dry run) is its job's to finish or fail.

const STRAY_AFTER_MS = 60 * 60 * 1000;

export async function purgeImports(now: Date = new Date()): Promise<{ purged: number; strays: number }> {
  const conn = await connection();
  const cutoff = new Date(now.getTime() - exportConfig.retentionHours * 3600 * 1000);
  const previewCutoff = new Date(now.getTime() - config().IMPORT_PREVIEW_RETENTION_HOURS * 3600 * 1000);
  const purged = await conn.query<{ id: string }>(sql`DELETE FROM subscriber_imports
    WHERE CASE WHEN dry_run THEN GREATEST(created_at, completed_at) < ${previewCutoff}
      ELSE status IN ('completed', 'failed') AND GREATEST(created_at, completed_at) < ${cutoff} END RETURNING id`);
  await storage().delete(purged.flatMap((r) => [sourceKey(r.id), rejectedKey(r.id)]));
  await conn.query(`DELETE FROM import_rows r WHERE NOT EXISTS (
    SELECT 1 FROM subscriber_imports i WHERE i.id = r.import_id AND i.status IN ('in_queue', 'running') AND i.attempt = r.attempt)`);
  const known = new Set((await conn.query<{ id: string }>(`SELECT id FROM subscriber_imports`)).map((r) => r.id));
  const strays: string[] = [];
  for await (const entry of storage().list("imports/")) {
    const id = entry.key.slice("imports/".length).split(".")[0]!;
    if (!known.has(id) && now.getTime() - entry.modifiedAt.getTime() > STRAY_AFTER_MS) strays.push(entry.key);
  }
  await storage().delete(strays);
  return { purged: purged.length, strays: strays.length };
}
