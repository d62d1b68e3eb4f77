import { afterAll, beforeAll, describe, expect, it } from "vitest";
import AuditPage from "@/app/(console)/audit/page";
import { createBranchAction, deleteBranchAction, updateBranchAction } from "@/app/(console)/branches/actions";
import { createSubscriberAction } from "@/app/(console)/subscribers/actions";
import type { SessionUser } from "@/lib/auth/permissions";
import { auditFiltersSchema } from "@/lib/audit/filters";
import { DENIED_EVENTS_PER_MINUTE } from "@/lib/audit/log";
import { listAuditEvents } from "@/lib/audit/queries";
import { auditWords, describeAudit, fieldLabel } from "@/lib/audit/describe";
import { createUser } from "@/lib/users/mutations";
import type { Database } from "@/lib/db/client";
import { actAs, createUsers, testDatabase, testDbKinds } from "../helpers/db";
import { expectRefused } from "../helpers/http";
import { renderPage } from "../helpers/render-page";

for (const kind of testDbKinds()) {
  describe(`audit log on ${kind}`, () => {
    let database: Database;
    let users: { admin: SessionUser; staff: SessionUser };

    beforeAll(async () => {
      database = await testDatabase(kind);
      users = await createUsers(database);
    });
    afterAll(async () => database?.close());

    it("records branch changes with before and after values, in the same transaction", async () => {
      actAs(users.admin);
      const created = await createBranchAction({ name: "Audit town" });
      const id = created.ok ? (created.data as { id: number }).id : 0;
      await updateBranchAction({ id, name: "Audit city" });
      await deleteBranchAction({ id });
      const events = await database.prisma.auditEvent.findMany({ where: { entity: "branch", entity_id: String(id) }, orderBy: { id: "asc" } });
      expect(events.map((e) => e.action)).toEqual(["branch.create", "branch.update", "branch.delete"]);
      expect(events.every((e) => e.actor_id === users.admin.id && e.actor_email === users.admin.email)).toBe(true);
      expect(events[1]).toMatchObject({ before: { name: "Audit town" }, after: { name: "Audit city" } });
      expect(events[2]).toMatchObject({ before: { name: "Audit city", subscribers_detached: 0 }, after: null });

      // A refused change leaves neither the change nor its event.
      const before = await database.prisma.auditEvent.count();
      expect(await createBranchAction({ name: "AUDIT CITY".toLowerCase() })).toMatchObject({ ok: true });
      expect(await createBranchAction({ name: "Audit City" })).toMatchObject({ ok: false });
      expect(await database.prisma.auditEvent.count()).toBe(before + 1);
    });

    it("records subscriber creation and refusals", async () => {
      actAs(users.staff);
      const result = await createSubscriberAction({
        first_name: "Ada",
        last_name: "Audit",
        email: "ada.audit@example.com",
        mobile: "+447400123987",
        subscription_status: "active",
        is_mandatory: true,
      });
      expect(result).toMatchObject({ ok: true });
      const id = result.ok ? (result.data as { id: number }).id : 0;
      expect(await database.prisma.auditEvent.findFirst({ where: { action: "subscriber.create", entity_id: String(id) } })).toMatchObject({
        actor_email: users.staff.email,
        after: { email: "ada.audit@example.com", is_duplicate: false },
      });

      await expectRefused(createBranchAction({ name: "Not for staff" }), 403);
      expect(await database.prisma.auditEvent.count({ where: { action: "authz.denied", actor_id: users.staff.id } })).toBeGreaterThan(0);
    });

    it("writes at most a few authz.denied events per user and minute, counting the rest on the minute's last", async () => {
      const denied = () =>
        database.prisma.auditEvent.findMany({ where: { action: "authz.denied", actor_id: users.staff.id }, select: { at: true, after: true }, orderBy: { id: "asc" } });
      const refusals = (events: { after: unknown }[]) => events.reduce((n, e) => n + 1 + Number((e.after as { repeated?: number } | null)?.repeated ?? 0), 0);
      const before = await denied();
      actAs(users.staff);
      const TRIES = 40;
      for (let i = 0; i < TRIES; i++) await expectRefused(createBranchAction({ name: `Not for staff ${i}` }), 403);
      const after = await denied();
      // Every refusal is counted, in few events: the bound holds in each minute (a run may straddle two).
      expect(refusals(after) - refusals(before)).toBe(TRIES);
      const perMinute = new Map<number, number>();
      for (const e of after) perMinute.set(Math.floor(e.at.getTime() / 60_000), (perMinute.get(Math.floor(e.at.getTime() / 60_000)) ?? 0) + 1);
      for (const n of perMinute.values()) expect(n).toBeLessThanOrEqual(DENIED_EVENTS_PER_MINUTE);
      expect(after.length - before.length).toBeLessThanOrEqual(2 * DENIED_EVENTS_PER_MINUTE);
      expect(after.at(-1)!.after).toMatchObject({ required: "admin", role: "staff", repeated: expect.any(Number) });
      // Another user's denials have their own bound.
      const other = await database.prisma.user.create({ data: { email: `other-${kind}@audit.test`, name: "Other Staff", role: "staff", password_hash: "x" } });
      actAs({ ...users.staff, id: other.id, email: other.email });
      await expectRefused(createBranchAction({ name: "Not for them either" }), 403);
      expect(await database.prisma.auditEvent.count({ where: { action: "authz.denied", actor_id: other.id } })).toBe(1);
    });

    it("lists, filters and pages the events; only admins may read them", async () => {
      const all = await listAuditEvents(auditFiltersSchema.parse({}));
      expect(all.pagination.total).toBeGreaterThanOrEqual(5);
      const updates = await listAuditEvents(auditFiltersSchema.parse({ action: "branch.update" }));
      expect(updates.data.every((e) => e.action === "branch.update")).toBe(true);
      const byStaff = await listAuditEvents(auditFiltersSchema.parse({ actor: "staff-" }));
      expect(byStaff.data.length).toBeGreaterThan(0);
      expect(auditFiltersSchema.safeParse({ action: "nope" }).success).toBe(false);
      // A user's event names the user, read by id for the rows shown.
      await database.prisma.auditEvent.create({ data: { action: "user.role_change", entity: "user", entity_id: String(users.staff.id), before: { role: "staff" }, after: { role: "admin" } } });
      const roles = await listAuditEvents(auditFiltersSchema.parse({ action: "user.role_change" }));
      expect(roles.data[0]).toMatchObject({ entity_id: String(users.staff.id), entity_name: users.staff.name });

      actAs(users.staff);
      await expectRefused(AuditPage({ searchParams: Promise.resolve({}) }), 403);
      actAs(users.admin);
      await expect(AuditPage({ searchParams: Promise.resolve({}) })).resolves.toBeTruthy();
    });

    it("stores how a new user's password came to be as a code, which the page says in the reader's language", async () => {
      const linked = (await createUser({ name: "Lina Link", email: `lina-${kind}@audit.test`, role: "staff" }, users.admin)).user;
      const typed = (await createUser({ name: "Sami Set", email: `sami-${kind}@audit.test`, role: "staff", password: "violet quartz harbour 42" }, users.admin)).user;
      const made = async (id: number) => (await listAuditEvents(auditFiltersSchema.parse({ action: "user.create" }))).data.find((e) => e.entity_id === String(id))!;
      const [a, b] = [await made(linked.id), await made(typed.id)];
      expect(a.after).toMatchObject({ password: "link" });
      expect(b.after).toMatchObject({ password: "set" });
      const password = (row: typeof a, locale: "en" | "fr" | "ar") => describeAudit(row, auditWords(locale)).details.find(([k]) => k === fieldLabel("password", auditWords(locale)))?.[1];
      expect([password(a, "en"), password(b, "en")]).toEqual(["set-password link", "set by the administrator"]);
      expect([password(a, "fr"), password(b, "fr")]).toEqual(["lien pour définir le mot de passe", "défini par l’administrateur"]);
      expect([password(a, "ar"), password(b, "ar")]).toEqual(["رابط تعيين كلمة المرور", "عيّنها المسؤول"]);
      actAs(users.admin);
      expect(await renderPage(AuditPage, "/audit?action=user.create")).toContain("set-password link");
    });

    it("says the times are in the console's time zone, which is the one its cells show", async () => {
      const zone = process.env.CONSOLE_TIME_ZONE;
      process.env.CONSOLE_TIME_ZONE = "America/New_York";
      try {
        actAs(users.admin);
        const html = await renderPage(AuditPage, "/audit?action=branch.update");
        const event = (await listAuditEvents(auditFiltersSchema.parse({ action: "branch.update" }))).data[0]!;
        const local = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "America/New_York" }).format(event.at);
        expect(html).toContain(`>${local}</time>`);
        expect(html).toContain("When (America/New_York)");
        expect(html).toContain("Times in America/New_York.");
        expect(html).not.toMatch(/\bUTC\b/);
      } finally {
        if (zone === undefined) delete process.env.CONSOLE_TIME_ZONE;
        else process.env.CONSOLE_TIME_ZONE = zone;
      }
    });
  });
}
