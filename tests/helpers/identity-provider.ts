import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { SSO_GROUPS } from "./sso-groups";

// A real OpenID provider for the single sign-on tests: `oidc-provider` (OpenID Certified), run
// on a loopback port with its own sign-in pages (its development interactions: any password
// signs in the account named as login). Its accounts carry `groups` and `email_verified` as an
// organisation's directory would. The provider requires PKCE of every authorization request.
// No `@/` imports: scripts/e2e-server.mjs loads this file too (through tsx).

export type TestAccount = { email?: string; email_verified?: boolean; name?: string; groups?: string[] };

export type IdentityProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The console's settings that point at this provider. */
  env: Record<string, string>;
  close(): Promise<void>;
};

export { SSO_GROUPS };

/**
 * Starts the provider for a console whose origins are `consoleOrigins` (its callback must be one
 * of theirs), with `accounts` by login.
 */
export async function startIdentityProvider(options: { consoleOrigins: string[]; accounts: Record<string, TestAccount>; port?: number }): Promise<IdentityProvider> {
  const clientId = "console";
  const clientSecret = crypto.randomBytes(24).toString("base64url");
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.consoleOrigins.map((origin) => `${origin}/api/auth/callback/oidc`),
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    async findAccount(_ctx, id) {
      const account = options.accounts[id];
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ sub: id, ...account }) };
    },
    // Groups travel in the ID token with the profile, as a directory's groups mapper sends them.
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "groups"] },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    jwks: { keys: [{ ...key, alg: "RS256", use: "sig", kid: "test" }] },
    cookies: { keys: [crypto.randomBytes(24).toString("base64url")] },
    // Lifetimes of its own (seconds), so that it does not announce each default it falls back to.
    ttl: { Session: 3600, Interaction: 600, Grant: 3600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
    // The console is a first-party client: consent is implied once the person has signed in.
    async loadExistingGrant(ctx) {
      const { client, session, result, provider: self } = ctx.oidc;
      const grantId = result?.consent?.grantId ?? (client ? session?.grantIdFor(client.clientId) : undefined);
      if (grantId) return self.Grant.find(grantId);
      if (!client || !session?.accountId) return undefined;
      const grant = new self.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    env: {
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_NAME: "Test Directory",
      OIDC_ADMIN_GROUPS: SSO_GROUPS.admin,
      OIDC_STAFF_GROUPS: SSO_GROUPS.staff,
      OIDC_BRANCH_GROUP_PREFIX: SSO_GROUPS.branchPrefix,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
