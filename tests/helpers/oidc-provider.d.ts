// The part of oidc-provider 9 (a certified OpenID provider, a Koa application) the tests use;
// the package ships no types.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  type Claims = Record<string, unknown> & { sub: string };
  type Account = { accountId: string; claims(use: string, scope: string): Promise<Claims> | Claims };
  type Grant = { addOIDCScope(scope: string): void; save(): Promise<string> };
  type Context = {
    oidc: {
      provider: Provider;
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
    };
  };

  export type Configuration = {
    clients: Record<string, unknown>[];
    findAccount(ctx: Context, id: string): Promise<Account | undefined> | Account | undefined;
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    pkce?: { required(ctx: Context, client: unknown): boolean };
    features?: Record<string, { enabled: boolean }>;
    jwks?: { keys: Record<string, unknown>[] };
    cookies?: { keys: string[] };
    loadExistingGrant?(ctx: Context): Promise<Grant | undefined>;
    ttl?: Record<string, number>;
  };

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    Grant: { new (init: { clientId: string; accountId: string }): Grant; find(id: string): Promise<Grant | undefined> };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
