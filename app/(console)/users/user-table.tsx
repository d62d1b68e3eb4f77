import { ListTable } from "@/components/list/list-table";
import { PlainHeader, SortHeader } from "@/components/list/sort-header";
import { Badge, EmptyValue } from "@/components/ui/badge";
import type { SessionUser } from "@/lib/auth/permissions";
import { formatDateTime, nameList } from "@/lib/format";
import type { RawParams } from "@/lib/list/params";
import type { UserRow } from "@/lib/users/queries";
import type { BranchChoice } from "./branch-picker";
import { UserRowActions } from "./user-row-actions";

type Sort = { column: string; direction: "asc" | "desc" };

/** A user's branches as the table shows them: "Every branch", or the names (the first few, then how many more). */
function branchesText(ids: number[] | null, names: Map<number, string>): string {
  if (ids === null) return "Every branch";
  if (ids.length === 0) return "No branch";
  return nameList(ids.map((id) => names.get(id) ?? `#${id}`));
}

export function UserTable({
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
  const header = { sort, params, path };
  const names = new Map(branches.map((b) => [b.id, b.name]));
  return (
    <ListTable
      caption="Users"
      header={
        <>
          <SortHeader column="name" label="Name" {...header} />
          <SortHeader column="email" label="Email" {...header} />
          <SortHeader column="role" label="Role" {...header} />
          <PlainHeader label="Branches" />
          <SortHeader column="active" label="Active" {...header} />
          <SortHeader column="last_sign_in_at" label="Last sign-in" {...header} />
          <SortHeader column="created_at" label="Created" {...header} />
          <PlainHeader label="Actions" className="sticky end-0 bg-slate-50 text-end" />
        </>
      }
    >
      {rows.map((u) => (
        <tr key={u.id} className={u.active ? "hover:bg-slate-50/60" : "bg-slate-50/70 text-slate-500"}>
          <td className="px-3 py-2.5 font-medium text-slate-900">
            <bdi>{u.name}</bdi>
            {u.id === me.id ? <span className="ms-2 text-xs font-normal text-slate-500">(you)</span> : null}
          </td>
          <td className="px-3 py-2.5 text-slate-700">
            <bdi>{u.email}</bdi>
          </td>
          <td className="px-3 py-2.5">
            <Badge tone={u.role === "admin" ? "violet" : "slate"}>{u.role === "admin" ? "Administrator" : "Staff"}</Badge>
          </td>
          <td className="max-w-56 px-3 py-2.5 text-slate-700">
            <bdi>{branchesText(u.branch_ids, names)}</bdi>
          </td>
          <td className="px-3 py-2.5">
            <Badge tone={u.active ? "green" : "red"}>{u.active ? "Active" : "Deactivated"}</Badge>
          </td>
          <td className="whitespace-nowrap px-3 py-2.5 text-slate-600">
            {u.last_sign_in_at ? <time dateTime={u.last_sign_in_at.toISOString()}>{formatDateTime(u.last_sign_in_at)}</time> : <EmptyValue />}
          </td>
          <td className="whitespace-nowrap px-3 py-2.5 text-slate-600">
            <time dateTime={u.created_at.toISOString()}>{formatDateTime(u.created_at)}</time>
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
