import { FIELD, fieldLabel } from "@/lib/subscribers/fields";
import { changedFields } from "@/lib/subscribers/record";
import type { AuditAction } from "./actions";

// The audit log in words: each action's name in the filter, its area, and the sentence an entry
// reads as ("Changed last name and status of Gregory Kunze-Meyer"). `{record}` marks where the
// record (a link, where it still has a page) goes.

export const AUDIT_GROUPS = ["Subscribers", "Trash", "Branches", "Imports and exports", "Users", "Sign-in and access", "API tokens", "Webhooks", "Saved views"] as const;

type Json = Record<string, unknown>;
/** What a sentence may name beside the record: the fields changed, as a phrase, and the entry's own values. */
export type Facts = { fields: string; before: Json; after: Json };
type Text = { group: (typeof AUDIT_GROUPS)[number]; label: string; says: (f: Facts) => string };

const n = (v: unknown, one: string, many = `${one}s`) => `${Number(v ?? 0).toLocaleString("en-GB")} ${Number(v) === 1 ? one : many}`;
const ids = (v: unknown) => (Array.isArray(v) ? v.length : 0);

export const AUDIT_TEXT = {
  "subscriber.create": { group: "Subscribers", label: "Subscriber created", says: () => "Created {record}" },
  "subscriber.update": { group: "Subscribers", label: "Subscriber changed", says: (f) => `Changed ${f.fields || "nothing"} of {record}` },
  "subscriber.delete": { group: "Subscribers", label: "Subscriber deleted", says: () => "Moved {record} to the trash" },
  "subscriber.bulk_change": {
    group: "Subscribers",
    label: "Bulk change",
    says: (f) => ((f.after.change as Json | undefined)?.delete ? `Moved ${n(f.after.count, "subscriber")} to the trash in {record}` : `Changed ${f.fields} of ${n(f.after.count, "subscriber")} in {record}`),
  },
  "subscriber.bulk_undo": { group: "Subscribers", label: "Bulk change undone", says: () => "Undid {record}" },
  "subscriber.not_duplicates": { group: "Subscribers", label: "Marked not duplicates", says: (f) => `Marked ${n(ids(f.after.ids), "subscriber")} as not duplicates of each other` },
  "subscriber.duplicates_again": { group: "Subscribers", label: "“Not duplicates” taken back", says: (f) => `Took back “not duplicates” for ${n(ids(f.after.ids), "subscriber")}` },
  "subscriber.merge": { group: "Subscribers", label: "Duplicates merged", says: (f) => `Merged ${n(ids(f.after.merged), "duplicate")} into {record}` },
  "subscriber.merge_undo": { group: "Subscribers", label: "Merge undone", says: () => "Undid a merge into {record}" },
  "subscriber.restore": { group: "Trash", label: "Subscriber restored", says: () => "Restored {record} from the trash" },
  "subscriber.erase": { group: "Trash", label: "Subscriber deleted forever", says: () => "Deleted {record} forever" },
  "trash.purge": { group: "Trash", label: "Trash emptied", says: () => "Emptied the trash of old entries" },
  "person.export": { group: "Subscribers", label: "Personal data downloaded", says: (f) => `Downloaded the personal data of a person, ${n(f.after.records, "record")}` },
  "person.erase": { group: "Subscribers", label: "Person erased", says: (f) => `Erased a person: ${n(f.after.erased_subscribers, "record")}, their values in ${n(f.after.audit_entries_scrubbed, "audit entry", "audit entries")}` },
  "retention.erase": { group: "Trash", label: "Retention erasure", says: (f) => (f.after.dry_run ? `Would erase ${n(f.after.subscribers, "subscriber")} past the retention period (its first run reports only)` : `Erased ${n(f.after.subscribers, "subscriber")} past the retention period`) },
  "branch.create": { group: "Branches", label: "Branch created", says: () => "Created the branch {record}" },
  "branch.update": { group: "Branches", label: "Branch changed", says: (f) => `Changed ${f.fields || "nothing"} of the branch {record}` },
  "branch.delete": { group: "Branches", label: "Branch deleted", says: () => "Moved the branch {record} to the trash" },
  "branch.restore": { group: "Branches", label: "Branch restored", says: () => "Restored the branch {record} from the trash" },
  "branch.erase": { group: "Branches", label: "Branch deleted forever", says: () => "Deleted the branch {record} forever" },
  "import.start": { group: "Imports and exports", label: "Import started", says: () => "Started importing {record}" },
  "import.complete": { group: "Imports and exports", label: "Import finished", says: (f) => `Imported ${n(f.after.imported_rows, "row")} of ${Number(f.after.total_rows ?? 0).toLocaleString("en-GB")} from {record}` },
  "import.fail": { group: "Imports and exports", label: "Import failed", says: () => "The import of {record} failed" },
  "export.request": { group: "Imports and exports", label: "Export requested", says: (f) => `Requested ${f.after.format ? `a ${String(f.after.format).toUpperCase()}` : "an"} export of ${n(f.after.total_rows, "subscriber")}` },
  "export.download": { group: "Imports and exports", label: "Export downloaded", says: () => "Downloaded an export file" },
  "user.create": { group: "Users", label: "User created", says: () => "Created the user {record}" },
  "user.update": { group: "Users", label: "User renamed", says: () => "Changed the name of {record}" },
  "user.role_change": { group: "Users", label: "Role changed", says: () => "Changed the role of {record}" },
  "user.role_change_refused": { group: "Users", label: "Role change refused", says: () => "Kept the role of {record}: the last administrator" },
  "user.scope_change": { group: "Users", label: "Branches changed", says: () => "Changed the branches {record} sees" },
  "user.deactivate": { group: "Users", label: "User deactivated", says: () => "Deactivated {record}" },
  "user.reactivate": { group: "Users", label: "User reactivated", says: () => "Reactivated {record}" },
  "user.password_reset": { group: "Users", label: "Password reset", says: () => "Sent {record} a link to set a new password" },
  "user.password_set": { group: "Users", label: "Password set by link", says: () => "Set a new password with a link" },
  "user.password_change": { group: "Users", label: "Password changed", says: () => "Changed their password" },
  "user.locale_change": { group: "Users", label: "Language changed", says: (f) => `Chose ${f.after.locale ? `the language ${String(f.after.locale)}` : "to follow their browser's language"}` },
  "user.two_factor_enable": { group: "Users", label: "Two-factor turned on", says: () => "Turned on two-factor sign-in" },
  "user.two_factor_disable": { group: "Users", label: "Two-factor turned off", says: () => "Turned off two-factor sign-in" },
  "user.two_factor_reset": { group: "Users", label: "Two-factor reset", says: () => "Reset the two-factor sign-in of {record}" },
  "user.sso_link": { group: "Users", label: "Single sign-on linked", says: () => "Linked {record} to single sign-on" },
  "user.sso_unlink": { group: "Users", label: "Single sign-on unlinked", says: () => "Unlinked {record} from single sign-on" },
  "auth.sign_in": { group: "Sign-in and access", label: "Signed in", says: () => "Signed in" },
  "auth.sign_in_failed": { group: "Sign-in and access", label: "Sign-in refused", says: () => "Was refused signing in" },
  "auth.locked": { group: "Sign-in and access", label: "Sign-in locked", says: () => "Was locked out after too many failed sign-ins" },
  "auth.sign_out": { group: "Sign-in and access", label: "Signed out", says: () => "Signed out" },
  "auth.sso_refused": { group: "Sign-in and access", label: "Single sign-on refused", says: () => "Was refused single sign-on" },
  "user.recovery_code_use": { group: "Sign-in and access", label: "Recovery code used", says: () => "Signed in with a recovery code" },
  "user.recovery_codes_replace": { group: "Sign-in and access", label: "Recovery codes replaced", says: () => "Made new recovery codes, in place of the old ones" },
  "authz.denied": { group: "Sign-in and access", label: "Access refused", says: () => "Was refused access" },
  "token.create": { group: "API tokens", label: "Token created", says: () => "Created the API token {record}" },
  "token.revoke": { group: "API tokens", label: "Token revoked", says: () => "Revoked the API token {record}" },
  "token.export": { group: "API tokens", label: "Export by token", says: () => "Used the API token {record} for an export" },
  "webhook.create": { group: "Webhooks", label: "Webhook created", says: () => "Created the webhook endpoint {record}" },
  "webhook.update": { group: "Webhooks", label: "Webhook changed", says: (f) => `Changed ${f.fields || "nothing"} of the webhook endpoint {record}` },
  "webhook.delete": { group: "Webhooks", label: "Webhook deleted", says: () => "Deleted the webhook endpoint {record}" },
  "webhook.rotate_secret": { group: "Webhooks", label: "Webhook secret rotated", says: () => "Made a new signing secret for the webhook endpoint {record}" },
  "webhook.test": { group: "Webhooks", label: "Webhook test sent", says: () => "Sent a test event to the webhook endpoint {record}" },
  "webhook.resend": { group: "Webhooks", label: "Webhook delivery resent", says: () => "Sent a delivery to the webhook endpoint {record} again" },
  "webhook.disable": { group: "Webhooks", label: "Webhook turned off", says: (f) => `Turned off the webhook ${String(f.after.url ?? "")}: ${String(f.after.reason ?? "it kept failing")}` },
  "view.create": { group: "Saved views", label: "View saved", says: (f) => `Saved the ${f.after.shared ? "shared " : ""}view {record}` },
  "view.update": { group: "Saved views", label: "View changed", says: (f) => `Changed ${f.fields || "nothing"} of the view {record}` },
  "view.delete": { group: "Saved views", label: "View deleted", says: () => "Deleted the view {record}" },
  "view.default": {
    group: "Saved views",
    label: "Default view chosen",
    says: (f) => {
      const list = typeof f.after.resource === "string" ? `the ${f.after.resource} list` : "a list";
      return f.after.view == null ? `Opened ${list} without a default view` : `Made {record} their default view of ${list}`;
    },
  },
} satisfies Record<AuditAction, Text>;

/** The action filter's options: readable names, grouped by area, the raw codes as values. */
export const AUDIT_ACTION_OPTIONS = AUDIT_GROUPS.flatMap((group) =>
  Object.entries(AUDIT_TEXT as Record<string, Text>)
    .filter(([, t]) => t.group === group)
    .map(([value, t]) => ({ value, label: t.label, group })),
);

export type AuditEntry = { action: string; entity: string | null; entity_id: string | null; entity_name?: string | null; before: unknown; after: unknown };
export type Described = {
  /** The sentence; `{record}` where the record goes. */
  text: string;
  record: { label: string; href: string | null } | null;
  /** Field by field, for the record page's drawing; `before` null: only the new values (a bulk change). */
  diff: { fields: string[]; before: Json | null; after: Json } | null;
  /** What else an entry without a diff holds (a refusal's reason, an export's filters), as label and text. */
  details: [string, string][];
};

const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
/** Fields said in a sentence: "last name and status". */
const phrase = (fields: string[]) =>
  new Intl.ListFormat("en-GB", { type: "conjunction" }).format(fields.map((f) => (Object.hasOwn(FIELD, f) ? fieldLabel(f).toLowerCase() : f.replaceAll("_", " "))));
/** What an entry's snapshots hold that is no field: ids an edit decided again, a merge's choices. */
const NOT_FIELDS = new Set(["duplicates_reevaluated", "merge_id", "merged", "restored", "values", "via", "groups", "reason", "subscribers_detached"]);
/** Records gone for good, or in the trash: named, not linked. */
const GONE = new Set(["subscriber.delete", "subscriber.erase", "branch.delete", "branch.erase", "webhook.delete"]);

function record(e: AuditEntry, before: Json, after: Json): Described["record"] {
  if (!e.entity || e.entity_id == null) return null;
  const id = e.entity_id;
  const snap = { ...before, ...after };
  const link = (label: string, href: string | null) => ({ label, href: GONE.has(e.action) ? null : href });
  switch (e.entity) {
    case "subscriber":
      return link(typeof snap.first_name === "string" ? `${snap.first_name} ${String(snap.last_name ?? "")}`.trim() : `subscriber #${id}`, `/subscribers/${id}`);
    case "bulk_change":
      return link("a bulk change", `/subscribers/bulk/${id}`);
    case "branch":
      return link(typeof snap.name === "string" ? snap.name : `#${id}`, `/branches/${id}/edit`);
    case "import":
      return link(typeof snap.file_name === "string" ? snap.file_name : "a file", `/subscribers/import/${id}`);
    case "user":
      return link(e.entity_name ?? (typeof snap.name === "string" ? snap.name : `user #${id}`), null);
    case "token":
      return link(String(snap.name ?? snap.token ?? `#${id}`), null);
    case "webhook":
      return link(typeof snap.url === "string" ? snap.url : `webhook #${id}`, `/webhooks/${id}`);
    case "view":
      return link(String(snap.name ?? snap.view ?? `view #${id}`), null);
    default:
      return link(`${e.entity} #${id}`, null);
  }
}

const text = (v: unknown): string =>
  Array.isArray(v) ? v.map(text).join(", ") : v && typeof v === "object" ? Object.entries(v).map(([k, x]) => `${k.replaceAll("_", " ")}: ${text(x)}`).join("; ") : v == null ? "—" : String(v);

/** An entry as words, its record and its field-by-field change. */
export function describeAudit(e: AuditEntry): Described {
  const before = obj(e.before);
  const after = obj(e.after);
  const change = e.action === "subscriber.bulk_change" ? obj(after.change) : null;
  const both = e.before != null && e.after != null && !change;
  const fields = change
    ? Object.keys(change).filter((f) => f !== "delete")
    : both
      ? changedFields(before, after).filter((f) => !NOT_FIELDS.has(f) && (!e.action.startsWith("subscriber.merge") || Object.hasOwn(FIELD, f)))
      : [];
  const known = Object.hasOwn(AUDIT_TEXT, e.action) ? AUDIT_TEXT[e.action as AuditAction] : null;
  return {
    text: known ? known.says({ fields: phrase(fields), before, after }) : `${e.action} {record}`.trim(),
    record: record(e, before, after),
    diff: fields.length ? { fields, before: change ? null : before, after: change ?? after } : null,
    // A record's snapshot is named by the sentence; other entries' values are listed.
    details: fields.length || e.entity === "subscriber" || e.entity === "branch" ? [] : Object.entries({ ...before, ...after }).map(([k, v]) => [k.replaceAll("_", " "), text(v)]),
  };
}

/** The sentence as plain text, the record by its name. */
export const auditSentence = (e: AuditEntry) => {
  const d = describeAudit(e);
  return d.text.replace("{record}", d.record?.label ?? "").trim();
};
