// The groups the test identity provider's accounts carry and the console under test maps
// (OIDC_ADMIN_GROUPS, OIDC_STAFF_GROUPS, OIDC_BRANCH_GROUP_PREFIX): one list for the HTTP and e2e tests.
export const SSO_GROUPS = { admin: "console-admins", staff: "console-staff", branchPrefix: "branch:" } as const;
