import { requireAdmin } from "@/lib/auth/guards";
import { route } from "@/lib/http/api";
import { rawParams } from "@/lib/list/params";
import { personalDataApi } from "@/lib/openapi/operations/personal-data";
import { personArchive } from "@/lib/people/archive";

export const dynamic = "force-dynamic";

/** 200: a zip of everything held about the person (administrators); 404 when nothing is. */
export const GET = route(async (request) => {
  const user = await requireAdmin();
  const key = personalDataApi.export.query.parse(rawParams(new URL(request.url).searchParams));
  const archive = await personArchive(user.scope, key, user);
  return new Response(new Uint8Array(archive), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="personal-data-${new Date().toISOString().slice(0, 10)}.zip"`,
      "Content-Length": String(archive.length),
      "Cache-Control": "no-store",
    },
  });
});
