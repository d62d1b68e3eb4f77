import { requireUser } from "@/lib/auth/guards";
import { route } from "@/lib/http/api";
import { TEMPLATE_HEADER } from "@/lib/imports/fields";

export const dynamic = "force-dynamic";

/** A CSV with the header an import reads (docs/SPEC.md's names), to fill in. */
export const GET = route(async () => {
  await requireUser();
  const headers = new Headers();
  headers.set("Content-Type", "text/csv; charset=utf-8");
  headers.set("Content-Disposition", 'attachment; filename="subscribers-template.csv"');
  return new Response(`\uFEFF${TEMPLATE_HEADER}\r\n`, { headers });
});
