import "server-only";
import { canChangeView, canSeeView, type SessionUser } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import { sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { AppError, badRequest, notFound } from "@/lib/errors";
import { listOf, problem } from "@/lib/i18n/problem";
import { checkViewColumns, checkViewQuery, isViewResource, type ViewResource } from "./resources";
import { fieldProblems, viewSelect, type ViewRow } from "./queries";
import type { ViewCreate, ViewPatch } from "./schema";
import { refusedWrite, transaction } from "@/lib/db/transaction";

// Each change of a view is audited in its own transaction: a shared view or a default changes what
// other people's lists open with, and who did so is asked afterwards.

/** A view in the audit log: what it opens, not who owns it (the entry's actor and id say that). */
const snapshot = (v: Pick<ViewRow, "name" | "resource" | "query" | "columns" | "shared">) => ({ name: v.name, resource: v.resource, query: v.query, columns: v.columns, shared: v.shared });

const translate = refusedWrite("The view", "name", problem("views.nameTaken"));

/** The query and columns as stored, or a 400 naming the bad key or value. */
function checked(resource: string, input: { query?: string; columns?: string[] | null }) {
  const out: { query?: string; columns?: string[] | typeof Prisma.DbNull } = {};
  if (!isViewResource(resource)) {
    if (input.query === undefined && input.columns === undefined) return out;
    throw badRequest(problem("views.listGoneChange", { resource }));
  }
  if (input.query !== undefined) {
    const query = checkViewQuery(resource, input.query);
    if (!query.ok) {
      const refused = fieldProblems(query.problems);
      throw badRequest(problem("views.queryRefused", { resource, problems: listOf(refused) }), { query: refused });
    }
    out.query = query.value;
  }
  if (input.columns !== undefined) {
    const columns = checkViewColumns(resource, input.columns);
    // The message names the field, as the query's does; each put into the reader's words where it is shown.
    if (!columns.ok) throw badRequest(fieldProblems(columns.problems)[0]!, columns.problems);
    out.columns = columns.value ?? Prisma.DbNull;
  }
  return out;
}

const tooManyViews = (limit: number, resource: ViewResource) =>
  new AppError(
    409,
    "too_many_views",
    problem("views.tooMany", { limit, resource }),
    undefined,
    undefined,
    { limit },
  );

/**
 * Saves a view, at most VIEWS_PER_USER per owner and list: counted under a lock on that owner and
 * list in the insert's transaction, so creations at once cannot both take the last place
 * (docs/decisions/0027-saved-views.md).
 */
export async function createView(user: SessionUser, input: ViewCreate): Promise<ViewRow> {
  const data = checked(input.resource, input);
  const limit = config().VIEWS_PER_USER;
  return transaction(async (tx) => {
      await tx.query(sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`saved-views:${user.id}:${input.resource}`}, 0))`);
      const kept = await tx.savedView.count({ where: { owner_id: user.id, resource: input.resource } });
      if (kept >= limit) throw tooManyViews(limit, input.resource);
      const view = await tx.savedView.create({
        data: { owner_id: user.id, resource: input.resource, name: input.name, shared: input.shared, query: data.query!, columns: data.columns! },
        select: viewSelect,
      });
      await tx.audit({ action: "view.create", actor: user, entity: "view", entityId: view.id, after: snapshot(view) });
      return view;
    })
    .catch(translate);
}

/** A view the user may change: 404 when they may not see it, 403 when they may only open it. */
async function changeable(tx: Prisma.TransactionClient, user: SessionUser, id: number) {
  const view = await tx.savedView.findUnique({ where: { id }, select: viewSelect });
  if (!view || !canSeeView(user, view)) throw notFound("The view");
  if (!canChangeView(user, view)) throw new AppError(403, "forbidden", problem("views.notYours"));
  return view;
}

export async function updateView(user: SessionUser, id: number, patch: ViewPatch): Promise<ViewRow> {
  return transaction(async (tx) => {
      const view = await changeable(tx, user, id);
      const data = checked(view.resource, patch);
      const changed = await tx.savedView.update({
        where: { id },
        data: { ...data, ...(patch.name !== undefined ? { name: patch.name } : {}), ...(patch.shared !== undefined ? { shared: patch.shared } : {}) },
        select: viewSelect,
      });
      await tx.audit({ action: "view.update", actor: user, entity: "view", entityId: id, before: snapshot(view), after: snapshot(changed) });
      return changed;
    })
    .catch(translate);
}

export async function deleteView(user: SessionUser, id: number): Promise<{ name: string }> {
  return transaction(async (tx) => {
      const view = await changeable(tx, user, id);
      await tx.savedView.delete({ where: { id } });
      await tx.audit({ action: "view.delete", actor: user, entity: "view", entityId: id, before: snapshot(view) });
      return { name: view.name };
    })
    .catch(translate);
}

/** The view the user's list opens with when opened without a query; null: none (the whole list). */
export async function setDefaultView(user: SessionUser, resource: ViewResource, id: number | null): Promise<void> {
  await transaction(async (tx) => {
    if (id === null) {
      const { count } = await tx.savedViewDefault.deleteMany({ where: { user_id: user.id, resource } });
      if (count) await tx.audit({ action: "view.default", actor: user, after: { resource, view: null } });
      return;
    }
    const view = await tx.savedView.findUnique({ where: { id }, select: { owner_id: true, shared: true, resource: true, name: true } });
    if (!view || !canSeeView(user, view) || view.resource !== resource) throw notFound("The view");
    await tx.savedViewDefault.upsert({
      where: { user_id_resource: { user_id: user.id, resource } },
      create: { user_id: user.id, resource, view_id: id },
      update: { view_id: id },
    });
    await tx.audit({ action: "view.default", actor: user, entity: "view", entityId: id, after: { resource, view: view.name } });
  });
}
