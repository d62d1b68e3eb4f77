import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { config } from "@/lib/config";
import { safeReturnPath } from "@/lib/http/return-to";
import { SESSION_MAX_AGE_SECONDS, secureCookies } from "./cookies";
import { checkCredentials, type SignedInUser } from "./sign-in";
import { endSessions } from "./sign-out";

// next-auth signs users in (the credentials callback) and writes the session cookie. Everything
// else about a session is the console's own: lib/auth/session.ts reads it on every request, and
// the route (app/api/auth/[...nextauth]/route.ts) answers /api/auth/session from that reading and
// lets through only the routes the console uses.

export const authOptions: NextAuthOptions = {
  secret: config().NEXTAUTH_SECRET,
  useSecureCookies: secureCookies(),
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/login", error: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: (credentials, req) => checkCredentials(credentials, new Headers(req.headers as Record<string, string>)),
    }),
  ],
  callbacks: {
    // The token names the user, their session version and when they signed in (sessions end 8
    // hours later, however busy); their role is read from the database on every request.
    jwt({ token, user }) {
      if (user) {
        const u = user as unknown as SignedInUser;
        token.uid = Number(u.id);
        token.sv = u.sv;
        token.sat = Math.floor(Date.now() / 1000);
      }
      return token;
    },
    // Every address next-auth sends a browser to (after sign-in or sign-out, from a body, a query
    // or its callback-url cookie) is one of the console's own pages.
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
  }
}
