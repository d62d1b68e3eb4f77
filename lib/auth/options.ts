import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { config } from "@/lib/config";
import { safeReturnPath } from "@/lib/http/return-to";
import { SESSION_MAX_AGE_SECONDS, secureCookies } from "./cookies";
import { checkCredentials, type SignedInUser } from "./sign-in";
import { endSessions } from "./sign-out";

// next-auth signs users in and writes the cookie; the rest of a session is the console's own
// (docs/decisions/0009-one-credentials-path.md).

export const authOptions: NextAuthOptions = {
  secret: config().NEXTAUTH_SECRET,
  useSecureCookies: secureCookies(),
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/login", error: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" }, code: { label: "Code", type: "text" } },
      authorize: (credentials, req) => checkCredentials(credentials, new Headers(req.headers as Record<string, string>)),
    }),
  ],
  callbacks: {
    // Only who and when: the role is read from the database on every request.
    jwt({ token, user, account }) {
      if (user) {
        token.via = account?.provider === "credentials" ? "password" : "sso";
        const u = user as unknown as SignedInUser;
        token.uid = Number(u.id);
        token.sv = u.sv;
        token.sat = Math.floor(Date.now() / 1000);
      }
      return token;
    },
    // Every address next-auth sends a browser to is one of the console's own pages.
    redirect({ url, baseUrl }) {
      return `${baseUrl}${safeReturnPath(url, baseUrl)}`;
    },
  },
  events: {
    // next-auth's own POST /api/auth/signout ends the sessions the same way as the console's button.
    async signOut({ token }) {
      const id = Number(token?.uid);
      if (Number.isInteger(id)) await endSessions(id);
    },
  },
};

declare module "next-auth/jwt" {
  interface JWT {
    uid?: number;
    sv?: number;
    /** Signed in at, in seconds since the epoch. */
    sat?: number;
    /** How: a password (and a code, for an enrolled user) or the single sign-on provider. */
    via?: "password" | "sso";
  }
}
