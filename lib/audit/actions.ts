// The audit log's vocabulary, shared by the writer, the filters and the page.
export const AUDIT_ACTIONS = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.locked",
  "auth.sign_out",
  "authz.denied",
  "branch.create",
  "branch.update",
  "branch.delete",
  "subscriber.create",
  "export.request",
  "export.download",
  "user.create",
  "user.update",
  "user.role_change",
  "user.deactivate",
  "user.reactivate",
  "user.password_reset",
  "user.password_set",
  "user.password_change",
  "token.create",
  "token.revoke",
  "token.export",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
