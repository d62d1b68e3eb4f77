import { createTranslator } from "use-intl/core";
import type { SsoRefusal } from "@/lib/auth/sso-claims";
import { config } from "@/lib/config";
import { catalogue, type Messages } from "@/lib/i18n/catalogues";
import { formatsFor } from "@/lib/i18n/format";
import { INTL_TAG, LOCALE_NAMES, isLocale, type Locale } from "@/lib/i18n/locales";
import { problemsIn } from "@/lib/i18n/problems-in";
import { shownErased, shownViewName } from "@/lib/people/erased-words";
import { FIELD } from "@/lib/subscribers/fields";
import { changedFields } from "@/lib/subscribers/record";
import { disabledReasonProblem } from "@/lib/webhooks/disabled-reason";
import type { AuditAction } from "./actions";

// The audit log in words: each action's name in the filter, its area, and the sentence an entry
// reads as ("Changed last name and status of Gregory Kunze-Meyer"), from the `audit` catalogue in the
// reader's language (English unless told). `{record}` marks where the record (a link, where it still
// has a page) goes. The stored action names and the API stay as they are.

export const AUDIT_GROUPS = ["Subscribers", "Trash", "Branches", "Imports and exports", "Users", "Sign-in and access", "API tokens", "Webhooks", "Saved views"] as const;
type Group = (typeof AUDIT_GROUPS)[number];
/** Each group's catalogue key (audit.group.*). */
const GROUP_KEY: Record<Group, string> = {
  Subscribers: "subscribers",
  Trash: "trash",
  Branches: "branches",
  "Imports and exports": "importsExports",
  Users: "users",
  "Sign-in and access": "signIn",
  "API tokens": "apiTokens",
  Webhooks: "webhooks",
  "Saved views": "savedViews",
};

type Json = Record<string, unknown>;
type Values = Record<string, string | number>;
/** What a sentence may name beside the record: the fields changed, as a phrase, and the entry's own values. */
export type Facts = { fields: string; before: Json; after: Json };
type Text = { group: Group; says?: (f: Facts, w: AuditWords) => Values };

/** A translator of the whole catalogue, its Intl tag, the problems' words and a date-time in the console's zone: the reader's language. */
export type AuditWords = {
  tag: string;
  t: (key: string, values?: Values) => string;
  has: (key: string) => boolean;
  problems: (text: string) => string;
  dateTime: (value: Date) => string;
};

const made = new WeakMap<object, AuditWords>();
/** The audit's words in `locale` (English by default, as the API and the tests read them), from `messages` (a page's: lib/i18n/request.ts). */
export function auditWords(locale: Locale = "en", messages: Messages = catalogue(locale)): AuditWords {
  let words = made.get(messages);
  if (!words) {
    const translator = createTranslator({ locale, messages }) as unknown as { (key: string, values?: Values): string; has: (key: string) => boolean };
    const formats = formatsFor(locale, config().CONSOLE_TIME_ZONE);
    words = { tag: INTL_TAG[locale], t: (key, values) => translator(key, values), has: (key) => translator.has(key), problems: problemsIn(locale), dateTime: (value) => formats.dateTime(value) };
    made.set(messages, words);
  }
  return words;
}

const count = (v: unknown) => Number(v ?? 0);
const ids = (v: unknown) => (Array.isArray(v) ? v.length : 0);
/** A phrase of fields, or "nothing". */
const fieldsOr = (f: Facts, w: AuditWords) => f.fields || w.t("audit.nothing");
/** The catalogue key of an action: `subscriber.bulk_change` → `subscriber.bulkChange`. */
const keyOf = (action: string) => action.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

export const AUDIT_TEXT = {
  "subscriber.create": { group: "Subscribers" },
  "subscriber.update": { group: "Subscribers", says: (f, w) => ({ fields: fieldsOr(f, w) }) },
  "subscriber.delete": { group: "Subscribers" },
  "subscriber.bulk_change": {
    group: "Subscribers",
    says: (f) => ({ deleted: (f.after.change as Json | undefined)?.delete ? "yes" : "no", fields: f.fields, count: count(f.after.count) }),
  },
  "subscriber.bulk_undo": { group: "Subscribers" },
  "subscriber.not_duplicates": { group: "Subscribers", says: (f) => ({ count: ids(f.after.ids) }) },
  "subscriber.duplicates_again": { group: "Subscribers", says: (f) => ({ count: ids(f.after.ids) }) },
  "subscriber.merge": { group: "Subscribers", says: (f) => ({ count: ids(f.after.merged) }) },
  "subscriber.merge_undo": { group: "Subscribers" },
  "subscriber.restore": { group: "Trash" },
  "subscriber.erase": { group: "Trash" },
  "trash.purge": { group: "Trash" },
  "person.export": { group: "Subscribers", says: (f) => ({ count: count(f.after.records) }) },
  "person.erase": { group: "Subscribers", says: (f) => ({ records: count(f.after.erased_subscribers), entries: count(f.after.audit_entries_scrubbed) }) },
  "retention.erase": { group: "Trash", says: (f) => ({ dryRun: f.after.dry_run ? "yes" : "no", count: count(f.after.subscribers) }) },
  "branch.create": { group: "Branches" },
  "branch.update": { group: "Branches", says: (f, w) => ({ fields: fieldsOr(f, w) }) },
  "branch.delete": { group: "Branches" },
  "branch.restore": { group: "Branches" },
  "branch.erase": { group: "Branches" },
  "import.start": { group: "Imports and exports" },
  "import.complete": { group: "Imports and exports", says: (f) => ({ count: count(f.after.imported_rows), total: count(f.after.total_rows) }) },
  "import.fail": { group: "Imports and exports" },
  "export.request": { group: "Imports and exports", says: (f) => ({ format: f.after.format ? String(f.after.format).toUpperCase() : "none", count: count(f.after.total_rows) }) },
  "export.download": { group: "Imports and exports" },
  "user.create": { group: "Users" },
  "user.update": { group: "Users" },
  "user.role_change": { group: "Users" },
  "user.role_change_refused": { group: "Users" },
  "user.scope_change": { group: "Users" },
  "user.deactivate": { group: "Users" },
  "user.reactivate": { group: "Users" },
  "user.password_reset": { group: "Users" },
  "user.password_set": { group: "Users" },
  "user.password_change": { group: "Users" },
  "user.locale_change": { group: "Users", says: (f) => ({ language: isLocale(f.after.locale) ? LOCALE_NAMES[f.after.locale] : "none" }) },
  "user.two_factor_enable": { group: "Users" },
  "user.two_factor_disable": { group: "Users" },
  "user.two_factor_reset": { group: "Users" },
  "user.sso_link": { group: "Users" },
  "user.sso_unlink": { group: "Users" },
  "auth.sign_in": { group: "Sign-in and access" },
  "auth.sign_in_failed": { group: "Sign-in and access" },
  "auth.locked": { group: "Sign-in and access" },
  "auth.sign_out": { group: "Sign-in and access" },
  "auth.sso_refused": { group: "Sign-in and access" },
  "user.recovery_code_use": { group: "Sign-in and access" },
  "user.recovery_codes_replace": { group: "Sign-in and access" },
  "authz.denied": { group: "Sign-in and access" },
  "token.create": { group: "API tokens" },
  "token.revoke": { group: "API tokens" },
  "token.export": { group: "API tokens" },
  "webhook.create": { group: "Webhooks" },
  "webhook.update": { group: "Webhooks", says: (f, w) => ({ fields: fieldsOr(f, w) }) },
  "webhook.delete": { group: "Webhooks" },
  "webhook.rotate_secret": { group: "Webhooks" },
  "webhook.test": { group: "Webhooks" },
  "webhook.resend": { group: "Webhooks" },
  "webhook.disable": {
    group: "Webhooks",
    says: (f, w) => ({ url: String(f.after.url ?? ""), reason: f.after.reason == null ? w.t("audit.keptFailing") : w.problems(disabledReasonProblem(String(f.after.reason))) }),
  },
  "view.create": { group: "Saved views", says: (f) => ({ shared: f.after.shared ? "yes" : "no" }) },
  "view.update": { group: "Saved views", says: (f, w) => ({ fields: fieldsOr(f, w) }) },
  "view.delete": { group: "Saved views" },
  "view.default": {
    group: "Saved views",
    says: (f) => ({ chosen: f.after.view == null ? "no" : "yes", resource: typeof f.after.resource === "string" ? f.after.resource : "none" }),
  },
} satisfies Record<AuditAction, Text>;

/** The action filter's options: readable names, grouped by area, the raw codes as values. */
export const auditActionOptions = (w: AuditWords = auditWords()) =>
  AUDIT_GROUPS.flatMap((group) =>
    Object.entries(AUDIT_TEXT as Record<string, Text>)
      .filter(([, t]) => t.group === group)
      .map(([value]) => ({ value, label: w.t(`audit.label.${keyOf(value)}`), group: w.t(`audit.group.${GROUP_KEY[group]}`) })),
  );
export const AUDIT_ACTION_OPTIONS = auditActionOptions();

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
/** A stored field's name in the reader's language (audit.field.*); a name the catalogue does not know reads as itself. */
export const fieldLabel = (name: string, w: AuditWords) => (w.has(`audit.field.${keyOf(name)}`) ? w.t(`audit.field.${keyOf(name)}`) : name.replaceAll("_", " "));
/** Fields said in a sentence: "last name and status". */
const phrase = (fields: string[], w: AuditWords) => new Intl.ListFormat(w.tag, { type: "conjunction" }).format(fields.map((f) => fieldLabel(f, w)));
/** What an entry's snapshots hold that is no field: ids an edit decided again, a merge's choices. */
const NOT_FIELDS = new Set(["duplicates_reevaluated", "merge_id", "merged", "restored", "values", "via", "groups", "reason", "subscribers_detached"]);
/** Records gone for good, or in the trash: named, not linked. */
const GONE = new Set(["subscriber.delete", "subscriber.erase", "branch.delete", "branch.erase", "webhook.delete"]);

function record(e: AuditEntry, before: Json, after: Json, w: AuditWords): Described["record"] {
  if (!e.entity || e.entity_id == null) return null;
  const id = e.entity_id;
  const snap = { ...before, ...after };
  // What an erasure left in a name (`[erased]`) reads in the reader's language.
  const link = (label: string, href: string | null) => ({ label: shownErased(label, say(w)), href: GONE.has(e.action) ? null : href });
  switch (e.entity) {
    case "subscriber":
      return link(
        typeof snap.first_name === "string" ? `${shownErased(snap.first_name, say(w))} ${shownErased(String(snap.last_name ?? ""), say(w))}`.trim() : w.t("audit.record.subscriber", { id }),
        `/subscribers/${id}`,
      );
    case "bulk_change":
      return link(w.t("audit.record.bulkChange"), `/subscribers/bulk/${id}`);
    case "branch":
      return link(typeof snap.name === "string" ? snap.name : w.t("audit.record.numbered", { id }), `/branches/${id}/edit`);
    case "import":
      return link(typeof snap.file_name === "string" ? snap.file_name : w.t("audit.record.file"), `/subscribers/import/${id}`);
    case "user":
      return link(e.entity_name ?? (typeof snap.name === "string" ? snap.name : w.t("audit.record.user", { id })), null);
    case "token":
      return link(snap.name != null || snap.token != null ? String(snap.name ?? snap.token) : w.t("audit.record.numbered", { id }), null);
    case "webhook":
      return link(typeof snap.url === "string" ? snap.url : w.t("audit.record.webhook", { id }), `/webhooks/${id}`);
    case "view":
      // A view the erasure renamed (`Erased view 12`) is named in the reader's language.
      return link(snap.name != null || snap.view != null ? shownViewName({ id, name: String(snap.name ?? snap.view) }, say(w)) : w.t("audit.record.view", { id }), null);
    default:
      // Exports, trash purges, erasures and the like: the sentence says what it was; no record to name.
      return null;
  }
}

/** The audit's words as the erasure's display helpers take them. */
const say = (w: AuditWords) => (key: string, values?: Values) => w.t(key, values);

/** How a new user's password came to be: stored as a code ("link", "set"); rows written before as English words. */
const PASSWORD_KEY: Record<string, string> = { link: "audit.password.link", "set-password link": "audit.password.link", set: "audit.password.set", "set by the administrator": "audit.password.set" };

/** What a current-password check was for: stored as a code (lib/auth/throttle.ts); rows written before as English words. */
const DURING_KEY: Record<string, string> = {
  password_change: "audit.value.during.passwordChange",
  "password change": "audit.value.during.passwordChange",
  two_factor_setup: "audit.value.during.twoFactorSetUp",
  "two-factor set-up": "audit.value.during.twoFactorSetUp",
  new_recovery_codes: "audit.value.during.newRecoveryCodes",
  "new recovery codes": "audit.value.during.newRecoveryCodes",
  two_factor_turn_off: "audit.value.during.twoFactorTurnOff",
  "two-factor turn-off": "audit.value.during.twoFactorTurnOff",
};

/** A role as the users page names it: a user's `role`, and the role a refused page `required`. */
const ROLE_KEY: Record<string, string> = { admin: "users.role.admin", staff: "users.role.staff" };

/** Code values a detail field holds, by field, with the catalogue messages the rest of the console already says them with. */
const VALUE_KEY: Record<string, Record<string, string>> = {
  password: PASSWORD_KEY,
  during: DURING_KEY,
  role: ROLE_KEY,
  // An export's filters keep the query's text: a flag is "true" or "false".
  is_mandatory: { true: "subscribers.yes", false: "subscribers.no" },
  required: ROLE_KEY,
  scope: { read: "account.tokens.scopes.read", export: "account.tokens.scopes.export" },
  state: { active: "account.tokens.states.active", revoked: "account.tokens.states.revoked", expired: "account.tokens.states.expired" },
  subscription_status: { pending: "subscribers.status.pending", active: "subscribers.status.active", expired: "subscribers.status.expired", cancelled: "subscribers.status.cancelled" },
  // How a sign-in or a password came about, and why single sign-on or a role change was refused.
  via: { "single sign-on": "audit.value.via.sso", "verified email": "audit.value.via.verifiedEmail", link: "audit.password.link" },
  reason: {
    no_email: "audit.value.reason.noEmail",
    unverified_email: "audit.value.reason.unverifiedEmail",
    no_group: "audit.value.reason.noGroup",
    deactivated: "audit.value.reason.deactivated",
    subject_mismatch: "audit.value.reason.subjectMismatch",
    provider_answer_refused: "audit.value.reason.providerAnswerRefused",
    last_admin: "audit.value.reason.lastAdmin",
  } satisfies Record<SsoRefusal | "provider_answer_refused" | "last_admin", string>,
};

/** A full ISO date-time as stored from a Date ("2027-01-01T00:00:00.000Z"); a bare day or other text is left alone. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * One detail's value in the reader's words: a list and nested names (an export's filters) value by
 * value, a known code as the rest of the console says it, a stored instant as a date-time in the
 * console's zone, flags as Yes and No, what an erasure left in the reader's language.
 */
const detail = (field: string, v: unknown, w: AuditWords): string => {
  if (Array.isArray(v)) return new Intl.ListFormat(w.tag, { type: "unit", style: "short" }).format(v.map((x) => detail(field, x, w)));
  if (v && typeof v === "object") return Object.entries(v).map(([k, x]) => `${w.t("record.changes.field", { field: fieldLabel(k, w) })} ${detail(k, x, w)}`).join(w.t("audit.partSeparator"));
  const key = typeof v === "string" && Object.hasOwn(VALUE_KEY, field) && Object.hasOwn(VALUE_KEY[field]!, v) ? VALUE_KEY[field]![v] : undefined;
  if (key) return w.t(key);
  if (typeof v === "string" && ISO_DATE_TIME.test(v)) {
    const at = new Date(v);
    if (!Number.isNaN(at.getTime())) return w.dateTime(at);
  }
  if (typeof v === "boolean") return w.t(v ? "subscribers.yes" : "subscribers.no");
  if (typeof v === "string") return shownErased(v, say(w));
  return v == null ? "—" : String(v);
};

/** An entry as words, its record and its field-by-field change, in the language of `w` (English by default). */
export function describeAudit(e: AuditEntry, w: AuditWords = auditWords()): Described {
  const before = obj(e.before);
  const after = obj(e.after);
  const change = e.action === "subscriber.bulk_change" ? obj(after.change) : null;
  const both = e.before != null && e.after != null && !change;
  const fields = change
    ? Object.keys(change).filter((f) => f !== "delete")
    : both
      ? changedFields(before, after).filter((f) => !NOT_FIELDS.has(f) && (!e.action.startsWith("subscriber.merge") || Object.hasOwn(FIELD, f)))
      : [];
  const known = Object.hasOwn(AUDIT_TEXT, e.action) ? (AUDIT_TEXT[e.action as AuditAction] as Text) : null;
  return {
    text: known ? w.t(`audit.says.${keyOf(e.action)}`, { ...known.says?.({ fields: phrase(fields, w), before, after }, w), record: "{record}" }) : `${e.action} {record}`.trim(),
    record: record(e, before, after, w),
    diff: fields.length ? { fields, before: change ? null : before, after: change ?? after } : null,
    // A record's snapshot is named by the sentence; other entries' values are listed.
    details: fields.length || e.entity === "subscriber" || e.entity === "branch" ? [] : Object.entries({ ...before, ...after }).map(([k, v]) => [fieldLabel(k, w), detail(k, v, w)]),
  };
}

/** The sentence as plain text, the record by its name. */
export const auditSentence = (e: AuditEntry, w: AuditWords = auditWords()) => {
  const d = describeAudit(e, w);
  return d.text.replace("{record}", d.record?.label ?? "").trim();
};
