import { getTranslations } from "next-intl/server";
import { ListTable } from "@/components/list/list-table";
import { PlainHeader, SortHeader } from "@/components/list/sort-header";
import { Badge, EmptyValue } from "@/components/ui/badge";
import type { SessionUser } from "@/lib/auth/permissions";
import { getFormats } from "@/lib/i18n/server";
import type { RawParams } from "@/lib/list/params";
import type { UserRow } from "@/lib/users/queries";
import type { BranchChoice } from "./branch-picker";
import { UserRowActions } from "./user-row-actions";

type Sort = { column: string; direction: "asc" | "desc" };

type T = Awaited<ReturnType<typeof getTranslations<"users">>>;

/** A user's branches as the table shows them: "Every branch", or the names (the first three, then how many more). */
function branchesText(t: T, ids: number[] | null, names: Map<number, string>): string {
  if (ids === null) return t("table.everyBranch");
  if (ids.length === 0) return t("table.noBranch");
  const shown = ids.slice(0, 3).map((id) => names.get(id) ?? `#${id}`).join(t("table.listSeparator"));
  return ids.length > 3 ? t("table.branchesMore", { names: shown, more: ids.length - 3 }) : shown;
}

export async function UserTable({
  rows,
  sort,
  params,
  path,
  me,
  branches,
}: {
  rows: UserRow[];
  sort: Sort;
  params: RawParams;
  path: string;
  me: SessionUser;
  branches: BranchChoice[];
}) {
  const [t, f] = await Promise.all([getTranslations("users"), getFormats()]);
  const header = { sort, params, path };
  const names = new Map(branches.map((b) => [b.id, b.name]));
  return (
    <ListTable
      caption={t("title")}
      header={
        <>
          <SortHeader column="name" label={t("table.name")} {...header} />
          <SortHeader column="email" label={t("table.email")} {...header} />
          <SortHeader column="role" label={t("table.role")} {...header} />
          <PlainHeader label={t("table.branches")} />
          <SortHeader column="active" label={t("table.active")} {...header} />
          <SortHeader column="last_sign_in_at" label={t("table.lastSignIn")} {...header} />
          <SortHeader column="created_at" label={t("table.created")} {...header} />
          <PlainHeader label={t("table.actions")} className="sticky end-0 bg-slate-50 text-end" />
        </>
      }
    >
      {rows.map((u) => (
        <tr key={u.id} className={u.active ? "hover:bg-slate-50/60" : "bg-slate-50/70 text-slate-500"}>
          <td className="px-3 py-2.5 font-medium text-slate-900">
            <bdi>{u.name}</bdi>
            {u.id === me.id ? <span className="ms-2 text-xs font-normal text-slate-500">{t("table.you")}</span> : null}
          </td>
          <td className="px-3 py-2.5 text-slate-700">
            <bdi>{u.email}</bdi>
          </td>
          <td className="px-3 py-2.5">
            <Badge tone={u.role === "admin" ? "violet" : "slate"}>{t(`role.${u.role}`)}</Badge>
          </td>
          <td className="max-w-56 px-3 py-2.5 text-slate-700">
            <bdi>{branchesText(t, u.branch_ids, names)}</bdi>
          </td>
          <td className="px-3 py-2.5">
            <Badge tone={u.active ? "green" : "red"}>{u.active ? t("state.active") : t("state.deactivated")}</Badge>
          </td>
          <td className="whitespace-nowrap px-3 py-2.5 text-slate-600">
            {u.last_sign_in_at ? <time dateTime={u.last_sign_in_at.toISOString()}>{f.dateTime(u.last_sign_in_at)}</time> : <EmptyValue />}
          </td>
          <td className="whitespace-nowrap px-3 py-2.5 text-slate-600">
            <time dateTime={u.created_at.toISOString()}>{f.dateTime(u.created_at)}</time>
          </td>
          {/* Pinned to the right edge: on a phone the table scrolls sideways and the menu stays in reach. */}
          <td className={`sticky end-0 px-3 py-1.5 text-end align-top whitespace-nowrap ${u.active ? "bg-white" : "bg-slate-50"}`}>
            <UserRowActions user={{ id: u.id, name: u.name, email: u.email, role: u.role, active: u.active, branch_ids: u.branch_ids, two_factor: u.two_factor, sso_linked: u.sso_linked }} self={u.id === me.id} branches={branches} />
          </td>
        </tr>
      ))}
    </ListTable>
  );
}
