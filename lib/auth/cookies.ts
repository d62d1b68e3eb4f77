// The session cookie's name, by next-auth's own `useSecureCookies`: on https only the `__Secure-`
// name counts, which a plain-HTTP page or a sibling site cannot set. Own module: the proxy shares it.
import { decode, type JWT } from "next-auth/jwt";
import { config } from "@/lib/config";

export const secureCookies = (url = config().NEXTAUTH_URL): boolean => url?.toLowerCase().startsWith("https://") ?? false;

export function sessionCookieName(secure = secureCookies()): string {
  return secure ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

/** Sessions last a working day from sign-in, however busy: never renewed by use. */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/** next-auth's own reading of a session cookie: its token, or null when it has none or refuses it (another secret, expired, altered). */
export async function decodeSessionCookie(raw: string | undefined): Promise<JWT | null> {
  const secret = config().NEXTAUTH_SECRET;
  if (!raw || !secret) return null;
  return decode({ token: raw, secret }).catch(() => null);
}
