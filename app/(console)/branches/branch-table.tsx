import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ListTable } from "@/components/list/list-table";
import { PlainHeader, SortHeader } from "@/components/list/sort-header";
import type { BranchRow } from "@/lib/branches/queries";
import { getFormats } from "@/lib/i18n/server";
import type { RawParams } from "@/lib/list/params";
import { DeleteBranchButton } from "./delete-branch-button";

type Sort = { column: string; direction: "asc" | "desc" };

export async function BranchTable({
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
  const [t, f] = await Promise.all([getTranslations("branches"), getFormats()]);
  const header = { sort, params, path };
  return (
    // The cells' classes are app/globals.css's (.branch-table), not on each of them.
    <ListTable
      caption={t("title")}
      className="branch-table"
      header={
        <>
          <SortHeader column="id" label={t("table.id")} {...header} className="w-20" />
          <SortHeader column="name" label={t("table.name")} {...header} />
          <SortHeader column="created_at" label={t("table.created")} {...header} />
          <SortHeader column="updated_at" label={t("table.updated")} {...header} />
          {admin ? <PlainHeader label={t("table.actions")} className="text-end" /> : null}
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
            <time dateTime={b.created_at.toISOString()}>{f.dateTime(b.created_at)}</time>
          </td>
          <td>
            <time dateTime={b.updated_at.toISOString()}>{f.dateTime(b.updated_at)}</time>
          </td>
          {admin ? (
            <td className="actions">
              <Link href={`/branches/${b.id}/edit`} className="row-action" aria-label={t("table.editLabel", { name: b.name })}>
                {t("table.edit")}
              </Link>
              <DeleteBranchButton id={b.id} name={b.name} />
            </td>
          ) : null}
        </tr>
      ))}
    </ListTable>
  );
}
