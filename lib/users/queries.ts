import "server-only";
import { USER_BRANCH_IDS } from "@/lib/auth/scope";
import { query, sql, type Queryable } from "@/lib/db/sql";
import { offsetOf, readDirection, readPage, type PageWindow } from "@/lib/list/depth";
import { PER_PAGE, pagination, type Pagination } from "@/lib/list/pagination";
import { direction } from "@/lib/list/sql";
import type { Role } from "@/lib/auth/permissions";
import type { Locale } from "@/lib/i18n/locales";
import type { UserFilters } from "./filters";
import type { UserBody } from "./schema";
import { userWhere } from "./where";

export type UserRow = {
  id: number;
  name: string;
  email: string;
  role: Role;
  /** null: every branch (always for admins); else the branches a staff member is limited to. */
  branch_ids: number[] | null;
  active: boolean;
  /** Whether two-factor codes are set up (password sign-ins then need one). */
  two_factor: boolean;
  created_at: Date;
  last_sign_in_at: Date | null;
  /** Whether a single sign-on subject is linked (the /users page's "Unlink single sign-on"); not in the API's user. */
  sso_linked: boolean;
  /** The language the user chose (null: their browser's). */
  locale: Locale | null;
};

const SORT_SQL = {
  id: sql`u.id`,
  name: sql`lower(u.name)`,
  email: sql`u.email`,
  role: sql`u.role`,
  active: sql`u.active`,
  created_at: sql`u.created_at`,
  last_sign_in_at: sql`u.last_sign_in_at`,
} as const;

const COLUMNS = sql`u.id, u.name, u.email, u.role::text AS role, ${USER_BRANCH_IDS}, u.active, u.two_factor_enabled_at IS NOT NULL AS two_factor, u.created_at, u.last_sign_in_at, u.sso_subject IS NOT NULL AS sso_linked, u.locale`;

/** One user as the list shows it, read with `db` (a transaction's, to see its own changes). */
export async function readUser(db: Queryable, id: number): Promise<UserRow | null> {
  const [row] = await db.query<UserRow>(sql`SELECT ${COLUMNS} FROM users u WHERE u.id = ${id}`);
  return row ?? null;
}

export function userListSql(f: UserFilters, window: PageWindow = { offset: offsetOf(f.page), limit: PER_PAGE, reverse: false }) {
  const where = userWhere(f);
  const dir = direction(readDirection(f.sort.direction, window));
  return {
    rows: sql`SELECT ${COLUMNS} FROM users u ${where}
      ORDER BY ${SORT_SQL[f.sort.column]} ${dir}, u.id ${dir}
      LIMIT ${window.limit} OFFSET ${window.offset}`,
    count: sql`SELECT count(*)::int AS total FROM users u ${where}`,
  };
}

/** One page of users and the pagination over all matches. */
export async function listUsers(f: UserFilters): Promise<{ data: UserRow[]; pagination: Pagination }> {
  const { data, total } = await readPage(
    f.page,
    (window) => query<UserRow>(userListSql(f, window).rows),
    async () => (await query<{ total: number }>(userListSql(f).count))[0]?.total ?? 0,
  );
  return { data, pagination: pagination(total, f.page) };
}

/** docs/API.md's user: never a password or its hash. */
export function serializeUser(u: UserRow): UserBody {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    branch_ids: u.branch_ids,
    active: u.active,
    two_factor: u.two_factor,
    created_at: u.created_at.toISOString(),
    last_sign_in_at: u.last_sign_in_at?.toISOString() ?? null,
    locale: u.locale,
  };
}
