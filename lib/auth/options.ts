import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { config, singleSignOn } from "@/lib/config";
import { consoleOrigin, safeReturnPath } from "@/lib/http/return-to";
import { SESSION_MAX_AGE_SECONDS, secureCookies } from "./cookies";
import { checkCredentials, type SignedInUser } from "./sign-in";
import { endSessions } from "./sign-out";
import { signInWithSso } from "./sso";
import { SSO_PROVIDER_ID, type SsoRefusal } from "./sso-claims";

export { SSO_PROVIDER_ID };
import { noteAuthError } from "./sso-failures";

// next-auth signs users in and writes the cookie; the rest of a session is the console's own
// (docs/decisions/0009-one-credentials-path.md). Single sign-on is next-auth's own OpenID Connect
// client (docs/decisions/0030-sign-in-two-factor-and-sso.md).


/** The identity provider, found by discovery; the code flow with PKCE, state and nonce all checked. */
function ssoProvider(): OAuthConfig<Record<string, unknown>> | null {
  const sso = singleSignOn();
  if (!sso) return null;
  return {
    id: SSO_PROVIDER_ID,
    name: sso.name,
    type: "oauth",
    wellKnown: `${sso.issuer}/.well-known/openid-configuration`,
    clientId: sso.clientId,
    clientSecret: sso.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    // The claims are the ID token's, whose signature, issuer, audience and nonce openid-client checks.
    idToken: true,
    checks: ["pkce", "state", "nonce"],
    // The console's own user (created, linked, role and scope from groups), or why not.
    async profile(claims) {
      const outcome = await signInWithSso(claims);
      return outcome.ok ? outcome.user : { id: String(claims.sub ?? "unknown"), refused: outcome.reason };
    },
  };
}

const sso = ssoProvider();

export const authOptions: NextAuthOptions = {
  secret: config().NEXTAUTH_SECRET,
  useSecureCookies: secureCookies(),
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/login", error: "/login" },
  providers: [
    ...(config().PASSWORD_SIGN_IN
      ? [
          CredentialsProvider({
            name: "Email and password",
            credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" }, code: { label: "Code", type: "text" } },
            authorize: (credentials, req) => checkCredentials(credentials, new Headers(req.headers as Record<string, string>)),
          }),
        ]
      : []),
    ...(sso ? [sso] : []),
  ],
  // A provider's answer next-auth refused (state, PKCE, nonce, signature, an error from the provider) is audited too.
  logger: { error: noteAuthError },
  callbacks: {
    // A refused single sign-on goes to the page that says why.
    signIn({ user, account }) {
      if (account?.provider !== SSO_PROVIDER_ID || !user.refused) return true;
      return `${consoleOrigin()}/login/refused?reason=${user.refused}`;
    },
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

declare module "next-auth" {
  interface User {
    /** Set by the single sign-on provider's profile() when the person may not sign in. */
    refused?: SsoRefusal;
  }
}

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
