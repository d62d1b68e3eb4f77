import "server-only";
import { Readable } from "node:stream";
import type { SessionUser } from "@/lib/auth/permissions";
import { prisma } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { WITHDRAWN, WITHDRAWN_BEFORE } from "./purge";
import { storage } from "@/lib/storage";
import { tokenExportEntry } from "@/lib/tokens/tokens";
import { exportKey } from "./files";
import { CONTENT_TYPES } from "./format";
import { isJobId } from "@/lib/jobs/ids";
import { exportFilename } from "./status";
import { transaction } from "@/lib/db/transaction";

/**
 * `GET /api/v1/exports/{id}/download`: the user's completed file as an attachment. Anything else
 * is the same 404 so ids cannot be probed; the key is made from the id only after it matched.
 */
export async function downloadResponse(user: Pick<SessionUser, "id" | "email">, id: string): Promise<Response> {
  const userId = user.id;
  if (!isJobId(id)) throw notFound("The export file");
  const db = await prisma();
  const row = await db.subscriberExport.findFirst({
    where: { id, user_id: userId, status: "completed" },
    select: { id: true, completed_at: true, format: true },
  });
  if (!row?.completed_at) {
    // Withdrawn because it held erased data: its owner is told so (in the answer's words), not that it never was.
    // An export withdrawn before its error was a problem key says so in English.
    const withdrawn = await db.subscriberExport.findFirst({
      where: { id, user_id: userId, status: "failed", OR: [{ error: { startsWith: `${WITHDRAWN} ` } }, { error: { contains: WITHDRAWN_BEFORE } }] },
      select: { error: true },
    });
    if (withdrawn?.error) throw new AppError(410, "erased_data", withdrawn.error);
    throw notFound("The export file");
  }
  const file = await storage().get(exportKey(row.id, row.format));
  if (!file) throw notFound("The export file");
  try {
    await transaction(async (tx) => {
      await tx.subscriberExport.update({ where: { id: row.id }, data: { downloaded_at: new Date() } });
      await tx.audit({ action: "export.download", actor: user, entity: "export", entityId: row.id });
      const viaToken = tokenExportEntry("download", row.id);
      if (viaToken) await tx.audit(viaToken);
    });
  } catch (error) {
    file.body.destroy(); // nobody will read it
    throw error;
  }
  const body = Readable.toWeb(file.body) as ReadableStream<Uint8Array>;
  const headers = new Headers();
  headers.set("Content-Type", CONTENT_TYPES[row.format]);
  headers.set("Content-Disposition", `attachment; filename="${exportFilename(row.completed_at, undefined, row.format)}"`);
  headers.set("Content-Length", String(file.size));
  return new Response(body, { headers });
}
