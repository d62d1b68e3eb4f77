import { Readable } from "node:stream";
import { requireUser } from "@/lib/auth/guards";
import { route } from "@/lib/http/api";
import { rejectedFile } from "@/lib/imports/imports";

export const dynamic = "force-dynamic";

/** The rejected rows of a completed import (its original columns and `error`), to its owner only. */
export const GET = route<{ params: Promise<{ id: string }> }>(async (_request, { params }) => {
  const user = await requireUser();
  const { id } = await params;
  const { object, fileName } = await rejectedFile(user.id, id);
  const headers = new Headers();
  headers.set("Content-Type", "text/csv; charset=utf-8");
  headers.set("Content-Disposition", `attachment; filename="${fileName}"`);
  headers.set("Content-Length", String(object.size));
  return new Response(Readable.toWeb(object.body) as ReadableStream<Uint8Array>, { headers });
});
