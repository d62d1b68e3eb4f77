import { describe, expect, it } from "vitest";
import { parseConfig, singleSignOn, type SingleSignOn } from "@/lib/config";
import { readIdentity } from "@/lib/auth/sso-claims";

// How an ID token's claims become a person of the console (lib/auth/sso-claims.ts): a role only
// from the groups named in the settings (admin wins), branches only from the branch groups, and
// a refusal for a missing or unverified email or no group.

const SETTINGS: SingleSignOn = {
  issuer: "https://sso.example.com",
  clientId: "console",
  clientSecret: "s",
  name: "Single sign-on",
  groupsClaim: "groups",
  adminGroups: ["console-admins"],
  staffGroups: ["console-staff", "helpdesk"],
  branchGroupPrefix: "branch:",
};
const person = (claims: Record<string, unknown>) => ({ sub: "abc", email: "Pat@Example.com", email_verified: true, name: "Pat", ...claims });

describe("readIdentity", () => {
  it("maps groups to a role, admin winning, and branch groups to branch names", () => {
    expect(readIdentity(person({ groups: ["console-admins", "console-staff", "branch:Leeds"] }), SETTINGS)).toEqual({
      ok: true,
      identity: { issuer: "https://sso.example.com", subject: "abc", email: "pat@example.com", name: "Pat", groups: ["console-admins", "console-staff", "branch:Leeds"], role: "admin", branchNames: null },
    });
    const staff = readIdentity(person({ groups: ["helpdesk", "branch:Leeds", "branch: York ", "branch:"] }), SETTINGS);
    expect(staff.ok && staff.identity).toMatchObject({ role: "staff", branchNames: ["Leeds", "York"] });
    // No branch group: every branch.
    const everywhere = readIdentity(person({ groups: ["console-staff"] }), SETTINGS);
    expect(everywhere.ok && everywhere.identity.branchNames).toBeNull();
    // No prefix set: the scope is left to the administrators.
    const unmanaged = readIdentity(person({ groups: ["console-staff", "branch:Leeds"] }), { ...SETTINGS, branchGroupPrefix: null });
    expect(unmanaged.ok && unmanaged.identity.branchNames).toBeUndefined();
  });

  it("refuses no group, a group of another name or case, and a groups claim of another shape", () => {
    for (const groups of [undefined, [], ["Console-Admins"], ["console-admins-old"], { admin: true }, 42, [["console-admins"]]]) {
      expect(readIdentity(person({ groups }), SETTINGS), JSON.stringify(groups)).toMatchObject({ ok: false, reason: "no_group" });
    }
    // One group as a string is a list of one.
    expect(readIdentity(person({ groups: "console-staff" }), SETTINGS)).toMatchObject({ ok: true, identity: { role: "staff" } });
    // The claim named by the settings.
    expect(readIdentity(person({ roles: ["console-admins"] }), { ...SETTINGS, groupsClaim: "roles" })).toMatchObject({ ok: true, identity: { role: "admin" } });
  });

  it("needs an email, verified (email_verified true, or Entra ID's xms_edov)", () => {
    const groups = ["console-staff"];
    for (const verified of [false, "false", undefined, 1, "yes"]) {
      expect(readIdentity(person({ groups, email_verified: verified }), SETTINGS), String(verified)).toMatchObject({ ok: false, reason: "unverified_email" });
    }
    for (const claims of [{ email_verified: "true" }, { email_verified: undefined, xms_edov: true }]) {
      expect(readIdentity(person({ groups, ...claims }), SETTINGS).ok).toBe(true);
    }
    for (const email of [undefined, "", "  ", 7]) {
      expect(readIdentity(person({ groups, email }), SETTINGS)).toMatchObject({ ok: false, reason: "no_email" });
    }
  });

  it("keeps a name as names are kept, or uses the address's local part", () => {
    const name = (value: unknown) => {
      const read = readIdentity(person({ groups: ["console-staff"], name: value }), SETTINGS);
      return read.ok ? read.identity.name : null;
    };
    expect(name("  Pat\u202eRed  ")).toBe("PatRed");
    expect(name(undefined)).toBe("pat");
    expect(name("\u0007")).toBe("pat");
    expect(name("x".repeat(300))).toHaveLength(100);
  });
});

describe("single sign-on settings", () => {
  const base = { NODE_ENV: "test", NEXTAUTH_SECRET: "k3yb0ard-cat-0123456789abcdefghijklmnop" } as const;
  const on = { ...base, OIDC_ISSUER: "https://sso.example.com/realms/staff/", OIDC_CLIENT_ID: "console", OIDC_CLIENT_SECRET: "s3cret", OIDC_STAFF_GROUPS: " staff , , helpdesk " };

  it("is on with the issuer, id and secret, and reads the groups as lists", () => {
    expect(singleSignOn(parseConfig(base))).toBeNull();
    expect(singleSignOn(parseConfig(on))).toEqual({
      issuer: "https://sso.example.com/realms/staff",
      clientId: "console",
      clientSecret: "s3cret",
      name: "Single sign-on",
      groupsClaim: "groups",
      adminGroups: [],
      staffGroups: ["staff", "helpdesk"],
      branchGroupPrefix: null,
    });
  });

  it("refuses half a set-up, no group, a plain-http issuer elsewhere, and no way in", () => {
    expect(() => parseConfig({ ...on, OIDC_CLIENT_SECRET: "" })).toThrow(/OIDC_CLIENT_SECRET is not set/);
    expect(() => parseConfig({ ...base, OIDC_ADMIN_GROUPS: "admins" })).toThrow(/OIDC_ADMIN_GROUPS is set but single sign-on is not/);
    expect(() => parseConfig({ ...on, OIDC_STAFF_GROUPS: " , " })).toThrow(/neither OIDC_ADMIN_GROUPS nor OIDC_STAFF_GROUPS/);
    expect(() => parseConfig({ ...on, OIDC_ISSUER: "http://sso.example.com" })).toThrow(/^OIDC_ISSUER must be/m);
    expect(() => parseConfig({ ...on, OIDC_ISSUER: "https://sso.example.com/?x=1" })).toThrow(/^OIDC_ISSUER/m);
    expect(parseConfig({ ...on, OIDC_ISSUER: "http://127.0.0.1:4000" }).OIDC_ISSUER).toBe("http://127.0.0.1:4000");
    expect(() => parseConfig({ ...base, PASSWORD_SIGN_IN: "off" })).toThrow(/PASSWORD_SIGN_IN is off but single sign-on is not set up/);
    expect(parseConfig({ ...on, PASSWORD_SIGN_IN: "off" }).PASSWORD_SIGN_IN).toBe(false);
    expect(() => parseConfig({ ...on, PASSWORD_SIGN_IN: "maybe" })).toThrow(/^PASSWORD_SIGN_IN must be on or off/m);
  });
});
