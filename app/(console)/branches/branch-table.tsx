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
    // The cells' classes are app/globals.css's (.branch-table), not on each of them.
    <ListTable
      caption="Branches"
      className="branch-table"
      header={
        <>
          <SortHeader column="id" label="ID" {...header} className="w-20" />
          <SortHeader column="name" label="Name" {...header} />
          <SortHeader column="created_at" label="Created" {...header} />
          <SortHeader column="updated_at" label="Updated" {...header} />
          {admin ? <PlainHeader label="Actions" className="text-end" /> : null}
        </>
      }
    >
      {rows.map((b) => (
        <tr key={b.id}>
          <td className="code">{b.id}</td>
          <td className="name">
            <bdi>{b.name}</bdi>
          </td>
          <td>
            <time dateTime={b.created_at.toISOString()}>{formatDateTime(b.created_at)}</time>
          </td>
          <td>
            <time dateTime={b.updated_at.toISOString()}>{formatDateTime(b.updated_at)}</time>
          </td>
          {admin ? (
            <td className="actions">
              <Link href={`/branches/${b.id}/edit`} className="row-action" aria-label={`Edit ${b.name}`}>
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
