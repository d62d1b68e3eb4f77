import "server-only";
import { cookies } from "next/headers";
import { encode } from "next-auth/jwt";
import { config } from "@/lib/config";
import { SESSION_MAX_AGE_SECONDS, decodeSessionCookie, secureCookies, sessionCookieName } from "./cookies";

/** A new session version, the same sign-in time: after a password change only this session goes on. */
export async function reissueSession(sessionVersion: number): Promise<void> {
  const jar = await cookies();
  const name = sessionCookieName();
  const token = await decodeSessionCookie(jar.get(name)?.value);
  const secret = config().NEXTAUTH_SECRET;
  if (!token || !secret || typeof token.sat !== "number") return;
  const remaining = token.sat + SESSION_MAX_AGE_SECONDS - Math.floor(Date.now() / 1000);
  if (remaining <= 0) return;
  const value = await encode({ token: { ...token, sv: sessionVersion }, secret, maxAge: remaining });
  jar.set(name, value, { path: "/", httpOnly: true, sameSite: "lax", secure: secureCookies(), maxAge: remaining });
}
