import type { TestAccount } from "../tests/helpers/identity-provider";
import { SSO_GROUPS } from "../tests/helpers/sso-groups";

// The people of the test identity provider that scripts/e2e-server.mjs --sso starts for
// e2e/sso.spec.ts: its sign-in form takes the login (the key here) and any password.

/** A branch the spec makes before `sam` signs in: his branch group names it. */
export const SSO_BRANCH = "Sso Harbour";

export const SSO_ACCOUNTS: Record<string, TestAccount> = {
  // The demo administrator (a password user): the same user, linked by the verified email.
  ada: { email: "admin@example.com", email_verified: true, name: "Ada in the directory", groups: [SSO_GROUPS.admin] },
  olu: { email: "olu.okafor@example.com", email_verified: true, name: "Olu Okafor", groups: [SSO_GROUPS.admin, "all-staff"] },
  sam: { email: "sam.sato@example.com", email_verified: true, name: "Sam Sato", groups: [SSO_GROUPS.staff, `${SSO_GROUPS.branchPrefix}${SSO_BRANCH}`] },
  nog: { email: "noah.group@example.com", email_verified: true, name: "Noah Group", groups: ["all-staff"] },
  unv: { email: "una.verified@example.com", email_verified: false, name: "Una Verified", groups: [SSO_GROUPS.staff] },
};
