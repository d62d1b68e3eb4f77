import { requireUser } from "@/lib/auth/guards";
import { json, readJson, route } from "@/lib/http/api";
import { usersApi } from "@/lib/openapi/operations/people";
import { setOwnLocale } from "@/lib/users/account";
import { serializeUser } from "@/lib/users/queries";

export const dynamic = "force-dynamic";

// The caller's own settings: their language (docs/API.md, Languages). A write: an API token never
// reaches it (lib/tokens/scope.ts lets tokens read only), so it is a signed-in session's.

/** 200 with the user; 400 naming `locale` for anything but en, fr, ar or null. */
export const PATCH = route(async (request) => {
  const user = await requireUser();
  const { locale } = usersApi.updateMe.body.parse(await readJson(request));
  return json(serializeUser(await setOwnLocale(user, locale)));
});
