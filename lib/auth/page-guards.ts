import "server-only";
import { forbidden, redirect } from "next/navigation";
import { AuthError, requireAdmin, requireUser } from "./guards";
import type { SessionUser } from "./permissions";

/** Where to come back to after signing in: the page's own path and query. */
function loginUrl(path: string) {
  return `/login?callbackUrl=${encodeURIComponent(path)}`;
}

async function guardPage(guard: () => Promise<SessionUser>, path: string) {
  try {
    return await guard();
  } catch (error) {
    if (!AuthError.is(error)) throw error;
    if (error.status === 401) redirect(loginUrl(path));
    forbidden();
  }
}

/** For pages: anonymous visitors go to /login and come back to `path`; others get the 403 page. */
export const requirePageUser = (path: string) => guardPage(requireUser, path);
export const requirePageAdmin = (path: string) => guardPage(requireAdmin, path);
