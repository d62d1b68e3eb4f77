import { requireAdmin } from "@/lib/auth/guards";
import { json, route } from "@/lib/http/api";
import { rawParams } from "@/lib/list/params";
import { personalDataApi } from "@/lib/openapi/operations/personal-data";
import { retentionDryRun, retentionSettings } from "@/lib/people/retention";

export const dynamic = "force-dynamic";

/** 200: how many subscribers retention would erase, per branch (administrators); writes nothing. */
export const GET = route(async (request) => {
  await requireAdmin();
  const given = personalDataApi.retention.query.parse(rawParams(new URL(request.url).searchParams));
  const settings = retentionSettings();
  return json(await retentionDryRun({ erase_after_days: given.erase_after_days ?? settings.erase_after_days, unchanged_days: given.unchanged_days ?? settings.unchanged_days }));
});
