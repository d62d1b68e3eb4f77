import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { requestInfoFrom } from "@/lib/audit/context";
import { prisma } from "@/lib/db/client";
import { loginSchema } from "@/lib/validation/auth";
import { dummyHash, verifyPassword } from "./password";
import { endSessions } from "./sign-out";
import { recordSignIn } from "./throttle";
import type { Role } from "./permissions";

/** Sessions last a working day, not next-auth's default 30 days. */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

export const authOptions: NextAuthOptions = {
  secret: process.env.NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: 15 * 60 },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/login", error: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const parsed = loginSchema.safeParse(credentials ?? {});
        if (!parsed.success) return null;
        const request = requestInfoFrom(new Headers(req.headers as Record<string, string>));
        const user = await (await prisma()).user.findUnique({
          where: { email: parsed.data.email },
          select: { id: true, email: true, name: true, role: true, active: true, password_hash: true, session_version: true },
        });
        // Same work whether or not the email exists: no timing tells them apart.
        const ok = await verifyPassword(parsed.data.password, user?.password_hash ?? (await dummyHash()));
        if (!user || !ok || !user.active) {
          await recordSignIn({ email: parsed.data.email, success: false }, request);
          return null;
        }
        await recordSignIn({ email: parsed.data.email, success: true, user }, request);
        return { id: String(user.id), email: user.email, name: user.name, role: user.role, sv: user.session_version };
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        const u = user as unknown as { id: string; role: Role; sv: number };
        token.uid = Number(u.id);
        token.role = u.role;
        token.sv = u.sv;
      }
      return token;
    },
    session({ session, token }) {
      if (session.user) {
        Object.assign(session.user, { id: token.uid, role: token.role });
      }
      return session;
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
    role?: Role;
    sv?: number;
  }
}
