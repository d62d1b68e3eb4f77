import Link from "next/link";
import { ListTable } from "@/components/list/list-table";
import { PlainHeader, SortHeader } from "@/components/list/sort-header";
import type { BranchRow } from "@/lib/branches/queries";
import { formatDateTime } from "@/lib/format";
import type { RawParams } from "@/lib/list/params";
import { DeleteBranchButton } from "./delete-branch-button";

type Sort = { column: string; direction: "asc" | "desc" };

export function BranchTable({
  rows,
  sort,
  params,
  path,
  admin,
}: {
  rows: BranchRow[];
  sort: Sort;
  params: RawParams;
  path: string;
  admin: boolean;
}) {
  const header = { sort, params, path };
  return (
    <ListTable
      caption="Branches"
      header={
        <>
          <SortHeader column="id" label="ID" {...header} className="w-20" />
          <SortHeader column="name" label="Name" {...header} />
          <SortHeader column="created_at" label="Created" {...header} />
          <SortHeader column="updated_at" label="Updated" {...header} />
          {admin ? <PlainHeader label="Actions" className="text-right" /> : null}
        </>
      }
    >
      {rows.map((b) => (
        <tr key={b.id} className="hover:bg-slate-50/60">
          <td className="px-3 py-2.5 font-mono text-xs text-slate-500">{b.id}</td>
          <td className="px-3 py-2.5 font-medium text-slate-900">
            <bdi>{b.name}</bdi>
          </td>
          <td className="whitespace-nowrap px-3 py-2.5 text-slate-600">
            <time dateTime={b.created_at.toISOString()}>{formatDateTime(b.created_at)}</time>
          </td>
          <td className="whitespace-nowrap px-3 py-2.5 text-slate-600">
            <time dateTime={b.updated_at.toISOString()}>{formatDateTime(b.updated_at)}</time>
          </td>
          {admin ? (
            <td className="whitespace-nowrap px-3 py-1.5 text-right">
              <Link
                href={`/branches/${b.id}/edit`}
                className="rounded-md px-2.5 py-1.5 text-sm font-medium text-brand-700 hover:bg-brand-50"
                aria-label={`Edit ${b.name}`}
              >
                Edit
              </Link>
              <DeleteBranchButton id={b.id} name={b.name} />
            </td>
          ) : null}
        </tr>
      ))}
    </ListTable>
  );
}
