"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { secureCookies, sessionCookieName } from "@/lib/auth/cookies";
import { currentUser } from "@/lib/auth/session";
import { endSessions } from "@/lib/auth/sign-out";

// "Sign out" in the header: a plain form posting to this action (no client-side auth library in
// the console's JavaScript, and it works before hydration). Next checks the Origin of every
// server action, so another site cannot sign a user out. Anyone may call it: with no valid
// session there is nothing to end and the cookie is cleared all the same.

export async function signOutAction(): Promise<void> {
  const user = await currentUser();
  if (user) await endSessions(user.id);
  const jar = await cookies();
  const name = sessionCookieName();
  if (jar.has(name)) jar.set(name, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax", secure: secureCookies() });
  redirect("/login");
}
