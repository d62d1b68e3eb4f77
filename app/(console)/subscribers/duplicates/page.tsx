import type { Metadata } from "next";
import Link from "next/link";
import { ListBody, ListResults } from "@/components/list/list-results";
import { EmptyState } from "@/components/list/list-states";
import { ListToolbar } from "@/components/list/list-toolbar";
import type { ListFilters } from "@/components/list/filter-bar";
import { ListTable } from "@/components/list/list-table";
import { Badge, EmptyValue } from "@/components/ui/badge";
import { requirePageUser } from "@/lib/auth/page-guards";
import { canMergeSubscribers, type SessionUser } from "@/lib/auth/permissions";
import { formatDateTime } from "@/lib/format";
import { listOutcome } from "@/lib/list/outcome";
import { parseWith, withParams, type RawParams } from "@/lib/list/params";
import { heavy } from "@/lib/load/user-limit";
import { listBack } from "@/lib/subscribers/back";
import { duplicateFiltersSchema } from "@/lib/subscribers/duplicate-filters";
import { MERGE_FIELDS } from "@/lib/subscribers/duplicate-schema";
import { FIELD } from "@/lib/subscribers/fields";
import { listDuplicateGroups, type DuplicateGroup } from "@/lib/subscribers/duplicate-groups";
import { fieldText } from "@/lib/subscribers/merge-fields";
import { SEARCH } from "../filter-fields";
import { DismissButton } from "./dismiss-button";

export const metadata: Metadata = { title: "Duplicates" };

const PATH = "/subscribers/duplicates";

const TOOLBAR: ListFilters = {
  search: SEARCH,
  fields: [{ kind: "select", name: "rule", label: "Shared", options: [{ value: "email", label: "Email" }, { value: "mobile", label: "Mobile" }] }],
  keys: ["q", "rule"],
};

/** Groups of subscribers sharing an email or a mobile, side by side, with what differs marked. */
export default async function DuplicatesPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const user = await requirePageUser(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(duplicateFiltersSchema, params);
  const scope = user.scope;
  return (
    <div className="space-y-5">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href={listBack(params.back)} className="text-brand-700 hover:underline">
          ← Subscribers
        </Link>
      </nav>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Duplicates</h1>
        <p className="mt-1 text-sm text-slate-600">
          Subscribers sharing an email (case ignored) or a mobile number. Mark a group as not duplicates when they are different people
          {canMergeSubscribers(user) ? ", or merge it into one subscriber" : ""}.
        </p>
      </div>
      <ListToolbar filters={TOOLBAR} params={params} path={PATH} />
      <ListBody parsed={parsed} params={params} path={PATH}>
        {(filters) => (
          <ListResults
            list={listOutcome(() => heavy(user.id, () => listDuplicateGroups(scope, filters)))}
            params={params}
            path={PATH}
            noun={["group", "groups"]}
            empty={
              filters.q || filters.rule ? (
                <EmptyState title="No duplicates match these filters">Change or clear the filters to see more groups.</EmptyState>
              ) : (
                <EmptyState title="No duplicates">No two subscribers share an email or a mobile, apart from those marked as not duplicates.</EmptyState>
              )
            }
          >
            {(groups) => groups.map((group) => <Group key={`${group.rule}:${group.key}`} group={group} user={user} />)}
          </ListResults>
        )}
      </ListBody>
    </div>
  );
}

function Group({ group, user }: { group: DuplicateGroup; user: SessionUser }) {
  const members = group.subscribers;
  const title = `Same ${group.rule}: ${group.key}`;
  const headingId = `group-${group.rule}-${members[0]?.id ?? 0}`;
  const named = members.map((m) => ({ id: m.id, name: `${m.first_name} ${m.last_name}` }));
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          Same {group.rule}: <bdi className="font-mono text-sm">{group.key}</bdi>{" "}
          <span className="text-sm font-normal text-slate-600">· {members.length} subscribers</span>
        </h2>
        <div className="flex gap-2">
          <DismissButton members={named} label={title} />
          {canMergeSubscribers(user) ? (
            <Link href={`${PATH}/merge?ids=${members.map((m) => m.id).join(",")}`} className="btn btn-primary py-1.5" aria-label={`Merge…: ${title}`}>
              Merge…
            </Link>
          ) : null}
        </div>
      </div>
      <ListTable
        caption={`${title}: the members side by side`}
        header={
          <>
            <th scope="col" className="px-3 py-2 text-start font-medium text-slate-600">Field</th>
            {members.map((m) => (
              <th key={m.id} scope="col" className="px-3 py-2 text-start font-medium">
                <a href={`/subscribers/${m.id}`} className="text-brand-700 hover:underline">
                  #{m.id} <bdi>{`${m.first_name} ${m.last_name}`}</bdi>
                </a>
              </th>
            ))}
          </>
        }
      >
        {MERGE_FIELDS.map((field) => {
          const texts = members.map((m) => fieldText(m, field));
          const differs = new Set(texts).size > 1;
          return (
            <tr key={field} className={differs ? "bg-amber-50/70" : undefined}>
              <th scope="row" className="whitespace-nowrap px-3 py-2 text-start font-normal text-slate-600">
                {FIELD[field].label} {differs ? <Badge tone="amber">Differs</Badge> : null}
              </th>
              {texts.map((text, i) => (
                <td key={members[i]!.id} className={`px-3 py-2 ${differs ? "font-medium text-slate-900" : "text-slate-700"}`}>
                  {text === null ? <EmptyValue /> : <bdi>{text}</bdi>}
                </td>
              ))}
            </tr>
          );
        })}
        <tr>
          <th scope="row" className="whitespace-nowrap px-3 py-2 text-start font-normal text-slate-600">Created</th>
          {members.map((m) => (
            <td key={m.id} className="px-3 py-2 text-slate-600">
              <time dateTime={m.created_at.toISOString()}>{formatDateTime(m.created_at)}</time>
            </td>
          ))}
        </tr>
      </ListTable>
    </section>
  );
}
