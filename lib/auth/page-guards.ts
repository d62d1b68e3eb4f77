import "server-only";
import { forbidden, redirect } from "next/navigation";
import { config } from "@/lib/config";
import { prisma } from "@/lib/db/client";
import { AuthError, requireAdmin, requireUser } from "./guards";
import type { SessionUser } from "./permissions";
import { currentSession } from "./session";

export const TWO_FACTOR_PAGE = "/account/two-factor";

/** Where to come back to after signing in: the page's own path and query. */
function loginUrl(path: string) {
  return `/login?callbackUrl=${encodeURIComponent(path)}`;
}

/** REQUIRE_TWO_FACTOR: a covered user who signed in with a password and has no codes set up sets them up first. */
async function requireTwoFactorSetUp(user: SessionUser, path: string) {
  const rule = config().REQUIRE_TWO_FACTOR;
  if (rule === "off" || (rule === "admins" && user.role !== "admin") || path.startsWith(TWO_FACTOR_PAGE)) return;
  if ((await currentSession())?.signedInWith !== "password") return;
  const row = await (await prisma()).user.findUnique({ where: { id: user.id }, select: { two_factor_enabled_at: true } });
  if (!row?.two_factor_enabled_at) redirect(`${TWO_FACTOR_PAGE}?required=1`);
}

async function guardPage(guard: () => Promise<SessionUser>, path: string) {
  let user: SessionUser;
  try {
    user = await guard();
  } catch (error) {
    if (!AuthError.is(error)) throw error;
    if (error.status === 401) redirect(loginUrl(path));
    forbidden();
  }
  await requireTwoFactorSetUp(user, path);
  return user;
}

/** For pages: anonymous visitors go to /login and come back to `path`; others get the 403 page. */
export const requirePageUser = (path: string) => guardPage(requireUser, path);
export const requirePageAdmin = (path: string) => guardPage(requireAdmin, path);
