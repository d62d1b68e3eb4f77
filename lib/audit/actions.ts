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
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
