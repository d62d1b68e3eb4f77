import { vi } from "vitest";
import type { SessionUser } from "@/lib/auth/permissions";

// Integration tests call guards, actions and route handlers directly: who is signed in comes
// from actAs() (tests/helpers/db.ts) instead of a cookie.
type Holder = { __test_session_user?: SessionUser | null };

// The session's principal (lib/auth/principal.ts) is a password session with nothing pending.
vi.mock("@/lib/auth/session", async () => {
  const { branchScope } = await import("@/lib/auth/scope");
  const sessionUser = () => {
    const user = (globalThis as Holder).__test_session_user ?? null;
    // Worked out when read, as a user made without branch_ids is fine until something needs its scope.
    return user ? Object.defineProperty({ ...user }, "scope", { get: () => branchScope(user), enumerable: true }) : null;
  };
  return {
    sessionPrincipal: async () => {
      const user = sessionUser();
      return user ? { user, via: "password", signedInAt: Math.floor(Date.now() / 1000), twoFactor: "not-required" } : null;
    },
  };
});

// What Next provides inside a request: cache revalidation is a no-op here, and forbidden() /
// unauthorized() are enabled as by next.config.js (experimental.authInterrupts).
vi.mock("next/cache", () => ({ revalidatePath: vi.fn(), revalidateTag: vi.fn() }));
process.env.__NEXT_EXPERIMENTAL_AUTH_INTERRUPTS = "true";

// The request's language (lib/i18n/request.ts reads the session and Accept-Language inside a
// request): English here, as next-intl's server functions, which otherwise resolve to their
// client build outside React Server Components.
vi.mock("@/lib/i18n/request", async () => {
  const { catalogue } = await import("@/lib/i18n/catalogues");
  return { requestLocale: async () => "en", requestMessages: async () => catalogue("en"), default: undefined };
});
vi.mock("next-intl/server", async () => {
  const { createFormatter, createTranslator } = await import("next-intl");
  const { catalogue } = await import("@/lib/i18n/catalogues");
  const { config } = await import("@/lib/config");
  return {
    getLocale: async () => "en",
    getTranslations: async (namespace?: string) => createTranslator({ locale: "en", messages: catalogue("en"), namespace: namespace as never }),
    getFormatter: async () => createFormatter({ locale: "en", timeZone: config().CONSOLE_TIME_ZONE }),
    getRequestConfig: (make: unknown) => make,
  };
});
