import "server-only";
import { createTranslator } from "use-intl/core";
import { AuthError } from "@/lib/auth/guards";
import { scopeCondition, TRASHED_BRANCHES, type BranchScope } from "@/lib/auth/scope";
import { canManageTrash, canMergeSubscribers, type SessionUser } from "@/lib/auth/permissions";
import { empty, query, sql, type Statement } from "@/lib/db/sql";
import { catalogue } from "@/lib/i18n/catalogues";
import { INTL_TAG } from "@/lib/i18n/locales";
import { offsetOf } from "@/lib/list/depth";
import { pagination, PER_PAGE, type Pagination } from "@/lib/list/pagination";
import { canUndo } from "@/lib/subscribers/bulk";
import type { BulkChange } from "@/lib/subscribers/bulk-schema";
import type { Activity, ActivityFilters } from "./schema";

// One user's changes, newest first: bulk changes, imports, exports, merges and what they put in
// the trash one by one (a bulk deletion's rows are its bulk change). Deletions are read through the
// viewer's branch scope; the rest are the user's own jobs, scoped when they ran.

type Viewer = Pick<SessionUser, "id" | "role"> & { scope: BranchScope };

type Row = {
  kind: Activity["kind"];
  id: string;
  at: Date;
  status: Activity["status"];
  detail: Record<string, unknown>;
  user_id: number | null;
  user_name: string | null;
};

function activitySql(userId: number, scope: BranchScope): Statement {
  const trashScope = (column: Statement) => {
    const inside = scopeCondition(scope, column);
    return inside ? sql`AND ${inside}` : empty;
  };
  return sql`
    SELECT 'bulk_change' AS kind, b.id, b.created_at AS at,
           CASE WHEN x.status = 'completed' THEN 'undone' WHEN x.id IS NOT NULL THEN 'undoing' ELSE b.status::text END AS status,
           jsonb_build_object('change', b.change, 'rows', b.total_rows, 'changed', b.changed_rows, 'undo_of', b.undo_of, 'undo_id', x.id) AS detail
      FROM bulk_changes b LEFT JOIN bulk_changes x ON x.undo_of = b.id AND x.status <> 'failed' WHERE b.user_id = ${userId}
    UNION ALL
    SELECT 'import', i.id, i.created_at, i.status::text, jsonb_build_object('file', i.file_name, 'rows', i.imported_rows)
      FROM subscriber_imports i WHERE i.user_id = ${userId} AND NOT i.dry_run
    UNION ALL
    SELECT 'export', e.id, e.created_at, e.status::text, jsonb_build_object('format', e.format, 'rows', e.total_rows)
      FROM subscriber_exports e WHERE e.user_id = ${userId}
    UNION ALL
    SELECT 'merge', m.id, m.created_at, CASE WHEN m.undone_at IS NULL THEN 'completed' ELSE 'undone' END,
           jsonb_build_object('survivor', m.survivor_id, 'merged', m.merged_ids)
      FROM subscriber_merges m WHERE m.created_by = ${userId}
    UNION ALL
    SELECT 'subscriber_deletion', t.id::text, t.deleted_at, 'in_trash', jsonb_build_object('name', t.first_name || ' ' || t.last_name)
      FROM subscriber_trash t WHERE t.deleted_by = ${userId} AND t.merged_into IS NULL AND t.bulk_change_id IS NULL ${trashScope(sql`t.branch_id`)}
    UNION ALL
    SELECT 'branch_deletion', b.id::text, b.deleted_at, 'in_trash', jsonb_build_object('name', b.name)
      FROM ${TRASHED_BRANCHES} b WHERE b.deleted_by = ${userId} ${trashScope(sql`b.id`)}`;
}

/** A translator of the whole catalogue: the reader's language on the page, English in the API. */
export type ActivityWords = (key: string, values?: Record<string, string | number>) => string;
const english = createTranslator({ locale: "en", messages: catalogue("en") }) as unknown as ActivityWords;
/** A list in the reader's words (Intl.ListFormat): "#4, #5 and #6", Arabic joining with و. */
export type ListWords = (items: string[]) => string;
const englishListFormat = new Intl.ListFormat(INTL_TAG.en);
const englishList: ListWords = (items) => englishListFormat.format(items);

/** An entry as a page shows it: its sentence in the reader's language, and what its Undo's confirmation says. */
export type ShownActivity = Activity & { confirm: string | null };

const rows = (n: unknown) => Number(n) || 0;

/** A bulk change in words: "set the status to expired". */
function change(c: BulkChange, t: ActivityWords): string {
  if ("delete" in c) return t("activity.change.delete");
  if ("subscription_status" in c) return t("activity.change.status", { status: c.subscription_status });
  return t("activity.change.mandatory", { value: c.is_mandatory ? "yes" : "no" });
}

function shown(row: Row, viewer: Viewer, t: ActivityWords, list: ListWords): ShownActivity {
  const d = row.detail;
  const own = row.user_id === viewer.id;
  const base = { kind: row.kind, id: row.id, at: row.at.toISOString(), status: row.status, user: row.user_id === null ? null : { id: row.user_id, name: row.user_name ?? "" } };
  switch (row.kind) {
    case "bulk_change": {
      const bulkChange = d.change as BulkChange;
      const status = row.status === "completed" || row.status === "failed" ? row.status : ("running" as const);
      const bulk = { user_id: row.user_id ?? 0, status, change: bulkChange, created_at: row.at, undo_of: d.undo_of as string | null, undo_id: d.undo_id as string | null };
      const summary = d.undo_of
        ? t("activity.summary.bulkUndo", { change: change(bulkChange, t) })
        : t("activity.summary.bulkChange", { count: rows(d.rows), change: change(bulkChange, t) });
      return { ...base, summary, href: `/subscribers/bulk/${row.id}`, can_undo: canUndo(viewer, bulk), confirm: t("activity.undo.bulkBody", { summary }) };
    }
    case "import":
      return { ...base, summary: t("activity.summary.import", { file: String(d.file), count: rows(d.rows) }), href: own ? `/subscribers/import/${row.id}` : null, can_undo: false, confirm: null };
    case "export":
      return { ...base, summary: t("activity.summary.export", { count: rows(d.rows), format: String(d.format).toUpperCase() }), href: null, can_undo: false, confirm: null };
    case "merge":
      return {
        ...base,
        summary: t("activity.summary.merge", { merged: list((d.merged as number[]).map((id) => t("audit.record.numbered", { id }))), survivor: String(d.survivor) }),
        href: `/subscribers/${String(d.survivor)}`,
        can_undo: row.status === "completed" && canMergeSubscribers(viewer),
        confirm: t("activity.undo.mergeBody"),
      };
    default: {
      const subscriber = row.kind === "subscriber_deletion";
      const name = String(d.name);
      return {
        ...base,
        summary: subscriber ? t("activity.summary.subscriberDeletion", { name }) : t("activity.summary.branchDeletion", { name }),
        href: canManageTrash(viewer) ? (subscriber ? "/trash" : "/trash?kind=branches") : null,
        can_undo: canManageTrash(viewer),
        confirm: subscriber ? t("activity.undo.subscriberBody", { name }) : t("activity.undo.branchBody", { name }),
      };
    }
  }
}

/** An entry as the API answers it: without the page's confirmation. */
function omitConfirm(entry: ShownActivity): Activity {
  const { kind, id, at, status, user, summary, href, can_undo } = entry;
  return { kind, id, at, status, user, summary, href, can_undo };
}

/** A page of the activity of `filters.user_id` (administrators) or the viewer's own; anyone else's is a 403. */
export async function listActivity(viewer: Viewer, filters: ActivityFilters): Promise<{ data: Activity[]; pagination: Pagination }> {
  const { data, pagination: page } = await listShownActivity(viewer, filters, english, englishList);
  return { data: data.map((entry) => omitConfirm(entry)), pagination: page };
}

/** The same page as the console shows it: each entry in the words of `t` (the reader's language), with its Undo's confirmation. */
export async function listShownActivity(viewer: Viewer, filters: ActivityFilters, t: ActivityWords, list: ListWords): Promise<{ data: ShownActivity[]; pagination: Pagination }> {
  const userId = filters.user_id ?? (filters.user === undefined ? viewer.id : await userIdByEmail(filters.user));
  // Before saying whether the email is anyone's: no one but an administrator learns that here.
  if (userId !== viewer.id && viewer.role !== "admin") throw new AuthError(403);
  if (userId === null) return { data: [], pagination: pagination(0, filters.page) };
  const source = activitySql(userId, viewer.scope);
  const [found, [count]] = await Promise.all([
    query<Row>(sql`SELECT a.*, u.id AS user_id, u.name AS user_name FROM (${source}) a LEFT JOIN users u ON u.id = ${userId}
      ORDER BY a.at DESC, a.kind, a.id DESC LIMIT ${PER_PAGE} OFFSET ${offsetOf(filters.page)}`),
    query<{ total: number }>(sql`SELECT count(*)::int AS total FROM (${source}) a`),
  ]);
  return { data: found.map((row) => shown(row, viewer, t, list)), pagination: pagination(count?.total ?? 0, filters.page) };
}

/** The user of an email address as typed (emails are kept lower-case), or null. */
const userIdByEmail = async (email: string) =>
  (await query<{ id: number }>(sql`SELECT id FROM users WHERE email = ${email.trim().toLowerCase()}`))[0]?.id ?? null;
