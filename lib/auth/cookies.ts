// The session cookie, named by the one setting next-auth itself uses (`useSecureCookies` in
// lib/auth/options.ts): on an https:// console (NEXTAUTH_URL) only the `__Secure-` name, which a
// browser accepts only over HTTPS and never from a plain-HTTP page or a sibling site, counts as a
// session; on http:// (development, the embedded demo) only the plain name.
// Its own module: the proxy, sign-out and the session reader share it, and the proxy must not
// import server-only code.
import { config } from "@/lib/config";

export function secureCookies(url = config().NEXTAUTH_URL): boolean {
  return url?.toLowerCase().startsWith("https://") ?? false;
}

export function sessionCookieName(secure = secureCookies()): string {
  return secure ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

/** Sessions last a working day from sign-in, however busy: never renewed by use. */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;
