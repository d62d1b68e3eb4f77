import { ListTable } from "@/components/list/list-table";
import { PlainHeader, SortHeader } from "@/components/list/sort-header";
import type { AuditRow } from "@/lib/audit/queries";
import { config } from "@/lib/config";
import { formatDateTime } from "@/lib/format";
import type { RawParams } from "@/lib/list/params";

const Dash = () => <span className="text-slate-300">—</span>;

// Values people typed (names, emails, filters) are isolated (<bdi>): one right-to-left value
// cannot reorder the arrow, the other side or the cells around it.
function changes(row: AuditRow) {
  if (row.before == null && row.after == null) return <Dash />;
  const show = (v: unknown) => (v == null ? "—" : JSON.stringify(v));
  return (
    <span className="font-mono text-xs break-all text-slate-600">
      {row.before != null ? <bdi className="text-red-700">{show(row.before)}</bdi> : null}
      {row.before != null && row.after != null ? " → " : null}
      {row.after != null ? <bdi className="text-emerald-700">{show(row.after)}</bdi> : null}
    </span>
  );
}

export function AuditTable({ rows, sort, params, path }: { rows: AuditRow[]; sort: { column: string; direction: "asc" | "desc" }; params: RawParams; path: string }) {
  const header = { sort, params, path };
  return (
    <ListTable
      caption="Audit events"
      bodyClassName="align-top"
      header={
        <>
          <SortHeader column="at" label={`When (${config().CONSOLE_TIME_ZONE})`} {...header} />
          <SortHeader column="actor_email" label="Who" {...header} />
          <SortHeader column="action" label="Action" {...header} />
          <PlainHeader label="Record" />
          <PlainHeader label="Change" />
          <PlainHeader label="From" />
        </>
      }
    >
      {rows.map((row) => (
        <tr key={String(row.id)}>
          <td className="whitespace-nowrap px-3 py-2.5 font-mono text-xs text-slate-600">
            <time dateTime={row.at.toISOString()}>{formatDateTime(row.at, { seconds: true })}</time>
          </td>
          <td className="px-3 py-2.5">{row.actor_email != null ? <bdi>{row.actor_email}</bdi> : <Dash />}</td>
          <td className="whitespace-nowrap px-3 py-2.5 font-mono text-xs">{row.action}</td>
          <td className="whitespace-nowrap px-3 py-2.5 text-slate-600">{row.entity ? `${row.entity} #${row.entity_id}` : <Dash />}</td>
          <td className="max-w-md px-3 py-2.5">{changes(row)}</td>
          <td className="whitespace-nowrap px-3 py-2.5 font-mono text-xs text-slate-500" title={row.user_agent ?? undefined}>
            {row.ip ?? <Dash />}
          </td>
        </tr>
      ))}
    </ListTable>
  );
}
