import { requireAdmin } from "@/lib/auth/guards";
import { json, readJson, route } from "@/lib/http/api";
import { rawParams } from "@/lib/list/params";
import { webhooksApi } from "@/lib/openapi/operations/webhooks";
import { createWebhook, listWebhooks, serializeWebhook } from "@/lib/webhooks/endpoints";

export const dynamic = "force-dynamic";

// Administrators only (the same parser and rules as the /webhooks page's actions).

export const GET = route(async (request) => {
  await requireAdmin();
  const { page } = webhooksApi.list.query.parse(rawParams(new URL(request.url).searchParams));
  const { data, pagination } = await listWebhooks(page);
  return json({ data: data.map(serializeWebhook), pagination });
});

/** 201 with `secret`, shown this once. */
export const POST = route(async (request) => {
  const admin = await requireAdmin();
  const input = webhooksApi.create.body.parse(await readJson(request));
  const { row, secret } = await createWebhook(input, admin);
  return json({ ...serializeWebhook(row), secret, previous_secret_until: null }, 201);
});
