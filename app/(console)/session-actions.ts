"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { secureCookies, sessionCookieName } from "@/lib/auth/cookies";
import { currentUser } from "@/lib/auth/guards";
import { endSessions } from "@/lib/auth/sign-out";

// A plain form, so it works before hydration; the proxy refuses a cross-site POST, so another site
// cannot sign a user out. With no valid session the cookie is cleared all the same.

export async function signOutAction(): Promise<void> {
  const user = await currentUser();
  if (user) await endSessions(user.id);
  const jar = await cookies();
  const name = sessionCookieName();
  if (jar.has(name)) jar.set(name, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax", secure: secureCookies() });
  redirect("/login");
}
