// The session cookie's name, by next-auth's own `useSecureCookies`: on https only the `__Secure-`
// name counts, which a plain-HTTP page or a sibling site cannot set. Own module: the proxy shares it.
import { config } from "@/lib/config";

export function secureCookies(url = config().NEXTAUTH_URL): boolean {
  return url?.toLowerCase().startsWith("https://") ?? false;
}

export function sessionCookieName(secure = secureCookies()): string {
  return secure ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

/** Sessions last a working day from sign-in, however busy: never renewed by use. */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;
