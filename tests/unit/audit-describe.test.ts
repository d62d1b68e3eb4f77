import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { AUDIT_ACTION_OPTIONS, AUDIT_GROUPS, AUDIT_TEXT, auditSentence, auditWords, describeAudit, fieldLabel } from "@/lib/audit/describe";
import { ERASED, erasedViewName } from "@/lib/people/markers";

// The audit log in words: a sentence and a readable filter name for every action.

const fieldLabelOf = (name: string, locale: "en" | "fr" | "ar") => fieldLabel(name, auditWords(locale));
const entry = (action: string, over: Partial<Parameters<typeof describeAudit>[0]> = {}) => ({ action, entity: null, entity_id: null, before: null, after: null, ...over });

describe("the audit's words", () => {
  it("name every action, grouped, as a sentence with no code or JSON in it", () => {
    expect(Object.keys(AUDIT_TEXT).toSorted()).toEqual([...AUDIT_ACTIONS].toSorted());
    for (const action of AUDIT_ACTIONS) {
      const sentence = auditSentence(entry(action, { entity: "subscriber", entity_id: "7" }));
      expect(sentence, action).toMatch(/^[A-Z][^{}]*[a-z0-9]$/);
      expect(sentence, action).not.toMatch(/undefined|NaN|null|\[object|\./);
    }
  });

  it("offer the filter readable names in areas, the raw codes as values", () => {
    expect(AUDIT_ACTION_OPTIONS.map((o) => o.value).toSorted()).toEqual([...AUDIT_ACTIONS].toSorted());
    expect(new Set(AUDIT_ACTION_OPTIONS.map((o) => o.group))).toEqual(new Set(AUDIT_GROUPS));
    expect(AUDIT_ACTION_OPTIONS).toContainEqual({ value: "subscriber.update", label: "Subscriber changed", group: "Subscribers" });
    // One run per group: an <optgroup> each.
    const runs = AUDIT_ACTION_OPTIONS.map((o) => o.group).filter((g, i, all) => g !== all[i - 1]);
    expect(runs).toEqual([...AUDIT_GROUPS]);
  });

  it("say which fields of whom an edit changed, with the record's link and its field-by-field change", () => {
    const before = { id: 7, first_name: "Gregory", last_name: "Kunze", subscription_status: "pending", updated_at: "a" };
    const after = { ...before, last_name: "Kunze-Meyer", subscription_status: "active", updated_at: "b", duplicates_reevaluated: [3] };
    const e = entry("subscriber.update", { entity: "subscriber", entity_id: "7", before, after });
    expect(auditSentence(e)).toBe("Changed last name and status of Gregory Kunze-Meyer");
    expect(describeAudit(e)).toMatchObject({ record: { label: "Gregory Kunze-Meyer", href: "/subscribers/7" }, diff: { fields: ["last_name", "subscription_status"], before, after }, details: [] });
  });

  it("link a bulk change, name its new values and count, and name gone records without a link", () => {
    const bulk = describeAudit(entry("subscriber.bulk_change", { entity: "bulk_change", entity_id: "abc", after: { ids: [1, 2], change: { is_mandatory: true }, count: 2 } }));
    expect(bulk).toMatchObject({ text: "Changed mandatory of 2 subscribers in {record}", record: { label: "a bulk change", href: "/subscribers/bulk/abc" }, diff: { fields: ["is_mandatory"], before: null, after: { is_mandatory: true } } });
    expect(auditSentence(entry("subscriber.bulk_change", { entity: "bulk_change", entity_id: "x", after: { change: { delete: true }, count: 1 } }))).toBe("Moved 1 subscriber to the trash in a bulk change");
    expect(describeAudit(entry("subscriber.erase", { entity: "subscriber", entity_id: "9", after: { id: 9, erased: true } })).record).toEqual({ label: "subscriber #9", href: null });
    expect(auditSentence(entry("user.role_change", { entity: "user", entity_id: "2", entity_name: "Vera", before: { role: "staff" }, after: { role: "admin" } }))).toBe("Changed the role of Vera");
  });

  it("list what else an entry holds as words, not JSON", () => {
    const denied = describeAudit(entry("authz.denied", { after: { path: "/audit", roles: ["admin"], filters: { status: "active" } } }));
    expect(denied.details).toEqual([["path", "/audit"], ["roles", "admin"], ["filters", "status: active"]]);
  });

  it("name every other record's fields in the reader's language, not as stored names", () => {
    const [fr, ar] = [auditWords("fr"), auditWords("ar")];
    const token = entry("token.revoke", { entity: "token", entity_id: "3", before: { id: 3, name: "CI", scope: "read", expires_at: "2027-01-01", last_used_at: null, revoked_at: null, state: "active" } });
    expect(describeAudit(token, fr).details.map(([k]) => k)).toEqual(["identifiant", "nom", "portée", "expiration", "dernière utilisation", "révocation", "état"]);
    expect(describeAudit(token, ar).details.map(([k]) => k)).toEqual(["المعرّف", "الاسم", "النطاق", "الانتهاء", "آخر استخدام", "الإلغاء", "الوضع"]);
    const webhook = entry("webhook.test", { entity: "webhook", entity_id: "4", after: { url: "https://example.com/h", event_id: "msg_1" } });
    expect(describeAudit(webhook, fr).details).toEqual([["URL", "https://example.com/h"], ["identifiant de l’événement", "msg_1"]]);
    expect(describeAudit(webhook, ar).details).toEqual([["عنوان URL", "https://example.com/h"], ["معرّف الحدث", "msg_1"]]);
    // Nested names and their codes (an export's filters) and flags read as words too, parted as the language parts them.
    const exported = entry("export.request", { entity: "export", entity_id: "e", after: { filters: { subscription_status: "active", is_mandatory: true }, total_rows: 2 } });
    expect(describeAudit(exported, fr).details).toEqual([["filtres", "statut : Actif ; obligatoire : Oui"], ["lignes au total", "2"]]);
    expect(describeAudit(exported, ar).details).toEqual([["عوامل التصفية", "الحالة: نشط؛ إلزامي: نعم"], ["إجمالي الصفوف", "2"]]);
    // As an export stores them: the query's text. The sentence names no record, nor is one added to it.
    const stored = entry("export.request", { entity: "export", entity_id: "e", after: { filters: { is_mandatory: "false" }, format: "csv", total_rows: 2 } });
    expect(describeAudit(stored, fr).details[0]).toEqual(["filtres", "obligatoire : Non"]);
    expect(describeAudit(stored, fr).record).toBeNull();
    expect(auditSentence(stored, fr)).toBe("A demandé un export CSV de 2 abonnés");
    // The phrase of a sentence and the field-by-field change use the same labels.
    expect(["branch_ids", "two_factor", "events", "enabled", "query"].map((f) => fieldLabel(f, fr))).toEqual(["identifiants des agences", "double authentification", "événements", "activation", "requête"]);
    expect(["branch_ids", "two_factor", "events", "enabled", "query"].map((f) => fieldLabel(f, ar))).toEqual(["معرّفات الفروع", "المصادقة الثنائية", "الأحداث", "التفعيل", "الاستعلام"]);
    expect(auditSentence(entry("view.update", { entity: "view", entity_id: "5", before: { name: "A", query: "q=a" }, after: { name: "A", query: "q=b" } }), fr)).toMatch(/requête/);
  });

  it("say how a new user's password came to be in the reader's language, from the new codes and the English of older rows", () => {
    const made = (password: string) => entry("user.create", { entity: "user", entity_id: "8", after: { id: 8, name: "Nadia", password } });
    const said = (password: string, locale: "en" | "fr" | "ar") => describeAudit(made(password), auditWords(locale)).details.find(([, v]) => v !== "8" && v !== "Nadia");
    for (const [code, old] of [["link", "set-password link"], ["set", "set by the administrator"]] as const) {
      expect(said(code, "en")).toEqual(said(old, "en"));
      expect(said(code, "fr")).toEqual(said(old, "fr"));
      expect(said(code, "ar")).toEqual(said(old, "ar"));
    }
    expect(said("link", "en")).toEqual(["password", "set-password link"]);
    expect(said("set", "en")).toEqual(["password", "set by the administrator"]);
    expect(said("link", "fr")).toEqual(["mot de passe", "lien pour définir le mot de passe"]);
    expect(said("set", "fr")).toEqual(["mot de passe", "défini par l’administrateur"]);
    expect(said("link", "ar")).toEqual(["كلمة المرور", "رابط تعيين كلمة المرور"]);
    expect(said("set", "ar")).toEqual(["كلمة المرور", "عيّنها المسؤول"]);
  });

  it("say what a person's erasure left in the reader's language: the marker, and the name it gave a saved view", () => {
    const view = entry("view.update", { entity: "view", entity_id: "12", before: { name: "Ann Lee's list" }, after: { name: erasedViewName(12) } });
    expect(describeAudit(view).record?.label).toBe("Erased view 12");
    expect(describeAudit(view, auditWords("fr")).record?.label).toBe("Vue effacée 12");
    expect(describeAudit(view, auditWords("ar")).record?.label).toBe("طريقة عرض ممحوّة 12");
    // Only the name the erasure gives this very view: another view's typed name stays as typed.
    expect(describeAudit({ ...view, entity_id: "13" }, auditWords("fr")).record?.label).toBe("Erased view 12");
    const scrubbed = entry("view.delete", { entity: "view", entity_id: "9", before: { name: ERASED, query: `q=${ERASED}` } });
    expect(describeAudit(scrubbed, auditWords("fr")).record?.label).toBe("[effacé]");
    expect(describeAudit(scrubbed, auditWords("ar")).record?.label).toBe("[ممحوّ]");
    const exported = entry("export.request", { entity: "export", entity_id: "e", after: { filters: { q: ERASED } } });
    expect(describeAudit(exported).details).toEqual([["filters", "search: [erased]"]]);
    expect(describeAudit(exported, auditWords("fr")).details).toEqual([["filtres", "recherche : [effacé]"]]);
    expect(describeAudit(exported, auditWords("ar")).details).toEqual([["عوامل التصفية", "البحث: [ممحوّ]"]]);
    const subscriber = entry("subscriber.update", { entity: "subscriber", entity_id: "7", before: { first_name: ERASED, last_name: ERASED }, after: { first_name: ERASED, last_name: ERASED } });
    expect(describeAudit(subscriber, auditWords("fr")).record?.label).toBe("[effacé] [effacé]");
  });

  it("say known code values and stored instants in the reader's language, unknown values as stored", () => {
    // The console's zone is UTC unless CONSOLE_TIME_ZONE says otherwise, as in the tests.
    const token = entry("token.create", { entity: "token", entity_id: "3", after: { name: "CI", scope: "read", expires_at: "2027-01-01T00:00:00.000Z", state: "revoked" } });
    expect(describeAudit(token).details).toEqual([["name", "CI"], ["scope", "Read"], ["expires", "1 Jan 2027, 00:00"], ["state", "Revoked"]]);
    expect(describeAudit(token, auditWords("fr")).details).toEqual([["nom", "CI"], ["portée", "Lecture"], ["expiration", "1 janv. 2027, 00:00"], ["état", "Révoqué"]]);
    expect(describeAudit(token, auditWords("ar")).details).toEqual([["الاسم", "CI"], ["النطاق", "قراءة"], ["الانتهاء", "1 يناير 2027، 00:00"], ["الوضع", "ملغى"]]);
    const denied = entry("authz.denied", { after: { path: "/users", role: "staff", reason: "wrong_password" } });
    expect(describeAudit(denied).details).toEqual([["path", "/users"], ["role", "Staff"], ["reason", "wrong_password"]]);
    expect(describeAudit(denied, auditWords("fr")).details).toEqual([["chemin", "/users"], ["rôle", "Personnel"], ["motif", "wrong_password"]]);
    expect(describeAudit(denied, auditWords("ar")).details).toEqual([["المسار", "/users"], ["الدور", "موظف"], ["السبب", "wrong_password"]]);
  });

  it("say how a sign-in came about, why it or a role change was refused, and the role a page required", () => {
    const sso = entry("user.create", { entity: "user", entity_id: "9", after: { name: "Ana", role: "staff", via: "single sign-on" } });
    expect(describeAudit(sso, auditWords("fr")).details).toEqual([["nom", "Ana"], ["rôle", "Personnel"], [fieldLabelOf("via", "fr"), "authentification unique"]]);
    expect(describeAudit(sso, auditWords("ar")).details.at(-1)).toEqual([fieldLabelOf("via", "ar"), "الدخول الموحّد"]);
    const refused = entry("auth.sso_refused", { after: { reason: "no_group", groups: ["staff", "ops"] } });
    expect(describeAudit(refused).details).toEqual([["reason", "in no group that may sign in"], [fieldLabelOf("groups", "en"), "staff, ops"]]);
    expect(describeAudit(refused, auditWords("fr")).details[0]).toEqual(["motif", "dans aucun groupe autorisé à se connecter"]);
    expect(describeAudit(refused, auditWords("ar")).details).toEqual([["السبب", "ليس في أي مجموعة يُسمح لها بتسجيل الدخول"], [fieldLabelOf("groups", "ar"), "staff وops"]]);
    const provider = entry("auth.sso_refused", { after: { reason: "provider_answer_refused" } });
    expect(describeAudit(provider, auditWords("ar")).details).toEqual([["السبب", "رُفض ردّ مزوّد تسجيل الدخول"]]);
    const required = entry("authz.denied", { after: { required: "admin", role: "staff" } });
    expect(describeAudit(required, auditWords("fr")).details.map(([, v]) => v)).toEqual(["Administrateur", "Personnel"]);
    // A list is said item by item, joined as the reader's language joins a list.
    expect(describeAudit(entry("authz.denied", { after: { role: ["admin", "staff"] } }), auditWords("fr")).details).toEqual([["rôle", "Administrateur et Personnel"]]);
  });

  it("say what a refused password check was for, from the new codes and the English of older rows", () => {
    const said = (during: string, locale: "en" | "fr" | "ar") => describeAudit(entry("auth.sign_in_failed", { after: { during } }), auditWords(locale)).details;
    for (const [code, old] of [["password_change", "password change"], ["two_factor_setup", "two-factor set-up"], ["new_recovery_codes", "new recovery codes"], ["two_factor_turn_off", "two-factor turn-off"]] as const) {
      expect(said(code, "en")).toEqual([["during", old]]);
      expect(said(old, "en")).toEqual([["during", old]]);
      expect(said(code, "fr")).toEqual(said(old, "fr"));
      expect(said(code, "ar")).toEqual(said(old, "ar"));
    }
    expect(said("password_change", "fr")).toEqual([["pendant", "changement du mot de passe"]]);
    expect(said("two_factor_turn_off", "fr")).toEqual([["pendant", "désactivation de la double authentification"]]);
    expect(said("password_change", "ar")).toEqual([["أثناء", "تغيير كلمة المرور"]]);
    expect(said("new_recovery_codes", "ar")).toEqual([["أثناء", "رموز استرداد جديدة"]]);
    expect(said("something else", "fr")).toEqual([["pendant", "something else"]]);
  });
});
