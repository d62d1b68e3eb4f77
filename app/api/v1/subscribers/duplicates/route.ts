import { requireUser } from "@/lib/auth/guards";
import { json, route } from "@/lib/http/api";
import { rawParams } from "@/lib/list/params";
import { heavy } from "@/lib/load/user-limit";
import { duplicatesApi } from "@/lib/openapi/operations/duplicates";
import { listDuplicateGroups } from "@/lib/subscribers/duplicate-groups";
import { serializeRecord } from "@/lib/subscribers/record";

export const dynamic = "force-dynamic";

// The same parser and query as the /subscribers/duplicates page.

export const GET = route(async (request) => {
  const user = await requireUser();
  const filters = duplicatesApi.list.query.parse(rawParams(new URL(request.url).searchParams));
  const { data, pagination } = await heavy(user.id, () => listDuplicateGroups(user.scope, filters));
  return json({ data: data.map((g) => ({ key: g.key, rule: g.rule, subscribers: g.subscribers.map(serializeRecord) })), pagination });
});
