import { Suspense } from "react";
import type { ListOutcome } from "@/lib/list/outcome";
import type { Pagination } from "@/lib/list/pagination";
import type { RawParams } from "@/lib/list/params";
import type { ParseResult } from "@/lib/list/parse";
import { InvalidQuery, ListProblemNotice, PastLastPage, ResultSummary, type ListNoun } from "./list-states";
import { Pager } from "./pager";
import { TableSkeleton } from "./table-skeleton";

type Place = { params: RawParams; path: string };

/** Under a list's toolbar: the rows for the filters the address was read into (streamed), or what is wrong with the address. */
export function ListBody<F>({ parsed, params, path, streamKey, children }: Place & { parsed: ParseResult<F>; streamKey?: string; children: (filters: F) => React.ReactNode }) {
  if (!parsed.ok) return <InvalidQuery fields={parsed.problems} params={params} path={path} />;
  return (
    <Suspense key={streamKey} fallback={<TableSkeleton />}>
      {children(parsed.value)}
    </Suspense>
  );
}

/**
 * One page of a list: the problem that stopped its query, `empty` when nothing matches, a page
 * past the last, or the rows (`children`) between their summary (with `beside` on its line) and the pager.
 */
export async function ListResults<T>({
  list,
  params,
  path,
  noun,
  empty,
  beside,
  children,
}: Place & {
  list: Promise<ListOutcome<{ data: T[]; pagination: Pagination }>>;
  /** What the rows are (a key of list.nouns; an English [singular, plural] pair still reads). */
  noun: ListNoun;
  empty: React.ReactNode;
  beside?: (pagination: Pagination) => React.ReactNode;
  children: (rows: T[], pagination: Pagination) => React.ReactNode;
}) {
  const outcome = await list;
  if (!outcome.ok) return <ListProblemNotice problem={outcome.problem} params={params} path={path} />;
  const { data, pagination } = outcome.value;
  if (pagination.total === 0) return empty;
  if (data.length === 0) return <PastLastPage pagination={pagination} params={params} path={path} />;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <ResultSummary pagination={pagination} rows={data.length} noun={noun} />
        {beside?.(pagination)}
      </div>
      {children(data, pagination)}
      <Pager pagination={pagination} params={params} path={path} />
    </div>
  );
}
