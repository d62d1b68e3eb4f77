import "server-only";
import { cache } from "react";
import { cookies } from "next/headers";
import { decode } from "next-auth/jwt";
import { prisma } from "@/lib/db/client";
import { SESSION_COOKIE_NAMES } from "./cookies";
import type { SessionUser } from "./permissions";


/**
 * The signed-in user of this request, or null. The JWT only names the user: role and `active`
 * are read from the database on every request, and a token whose session version is stale
 * (signed out, demoted, deactivated) no longer counts.
 */
export const currentUser = cache(async (): Promise<SessionUser | null> => {
  const jar = await cookies();
  const raw = SESSION_COOKIE_NAMES.map((name) => jar.get(name)?.value).find(Boolean);
  const secret = process.env.NEXTAUTH_SECRET;
  if (!raw || !secret) return null;
  let token;
  try {
    token = await decode({ token: raw, secret });
  } catch {
    return null;
  }
  if (!token || typeof token.uid !== "number") return null;
  const user = await (await prisma()).user.findUnique({
    where: { id: token.uid },
    select: { id: true, name: true, email: true, role: true, active: true, session_version: true },
  });
  if (!user || !user.active || user.session_version !== token.sv) return null;
  return { id: user.id, name: user.name, email: user.email, role: user.role };
});
