import { requireAdmin } from "@/lib/auth/guards";
import { json, readJson, route } from "@/lib/http/api";
import { rawParams } from "@/lib/list/params";
import { usersApi } from "@/lib/openapi/operations/people";
import { createUser } from "@/lib/users/mutations";
import { listUsers, serializeUser } from "@/lib/users/queries";

export const dynamic = "force-dynamic";

// Administrators only (the same parser, query and rules as the /users page and its actions).

export const GET = route(async (request) => {
  await requireAdmin();
  const filters = usersApi.list.query.parse(rawParams(new URL(request.url).searchParams));
  const { data, pagination } = await listUsers(filters);
  return json({ data: data.map(serializeUser), pagination });
});

/** 201 with the user; without `password` it also carries `set_password_url`, shown this once. */
export const POST = route(async (request) => {
  const admin = await requireAdmin();
  const input = usersApi.create.body.parse(await readJson(request));
  const { user, setPasswordUrl } = await createUser(input, admin);
  return json({ ...serializeUser(user), ...(setPasswordUrl ? { set_password_url: setPasswordUrl } : {}) }, 201);
});
