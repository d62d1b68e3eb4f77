import "server-only";
import { forbidden, redirect } from "next/navigation";
import { AuthError, requireAdmin, requireSessionForTwoFactorSetUp, requireUser } from "./guards";
import type { Principal } from "./principal";

export const TWO_FACTOR_PAGE = "/account/two-factor";

/** Where to come back to after signing in: the page's own path and query. */
const loginUrl = (path: string) => `/login?callbackUrl=${encodeURIComponent(path)}`;

async function guardPage<U>(guard: () => Promise<U>, path: string): Promise<U> {
  try {
    return await guard();
  } catch (error) {
    if (!AuthError.is(error)) throw error;
    if (error.status === 401) redirect(loginUrl(path));
    // REQUIRE_TWO_FACTOR: the guard refused a user who still has to set up codes (lib/auth/principal.ts).
    if (error.reason === "two_factor_required") redirect(`${TWO_FACTOR_PAGE}?required=1`);
    forbidden();
  }
}

/** For pages: anonymous visitors go to /login and come back to `path`; others get the 403 page. */
export const requirePageUser = (path: string) => guardPage(requireUser, path);
export const requirePageAdmin = (path: string) => guardPage(requireAdmin, path);
/** The two-factor set-up page only: the one page a user who still has to set up codes may see. */
export const requirePageForTwoFactorSetUp = (path: string): Promise<Principal> => guardPage(requireSessionForTwoFactorSetUp, path);
