import { requireUser, requireUserForNewToken } from "@/lib/auth/guards";
import { json, readJson, route } from "@/lib/http/api";
import { tokensApi } from "@/lib/openapi/operations/people";
import { createToken, listTokens, serializeToken } from "@/lib/tokens/tokens";

export const dynamic = "force-dynamic";

// The caller's own tokens, with a signed-in session only: a token cannot list, make or revoke
// tokens (lib/tokens/scope.ts refuses it before this runs).

export const GET = route(async () => {
  const user = await requireUser();
  return json({ data: (await listTokens(user.id)).map(serializeToken) });
});

/** 201 with `token`, shown this once (only its hash is kept). */
export const POST = route(async (request) => {
  const user = await requireUserForNewToken();
  const input = tokensApi.create.body.parse(await readJson(request));
  const { token, row } = await createToken(user, input);
  return json({ ...serializeToken(row), token }, 201);
});
