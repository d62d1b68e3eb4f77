import Link from "next/link";
import { formatCount } from "@/lib/format";
import type { ListProblem } from "@/lib/list/outcome";
import { PER_PAGE, shownRange, type Pagination } from "@/lib/list/pagination";
import { withParams, type RawParams } from "@/lib/list/params";
import { buttonClass } from "@/components/ui/button-styles";

/** "Showing 11–20 of 245 branches". */
export function ResultSummary({ pagination, rows, noun }: { pagination: Pagination; rows: number; noun: [string, string] }) {
  const { from, to, total } = shownRange(pagination, rows);
  const word = total === 1 ? noun[0] : noun[1];
  return (
    <p className="text-sm text-slate-600" role="status" aria-live="polite">
      {total === 0 ? `No ${noun[1]}` : rows === 0 ? `${formatCount(total)} ${word}` : `Showing ${formatCount(from)}–${formatCount(to)} of ${formatCount(total)} ${word}`}
    </p>
  );
}

export function EmptyState({ title, children, action }: { title: string; children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <div className="mx-auto mt-2 max-w-md text-sm text-slate-600">{children}</div>
      {action ? <div className="mt-6 flex justify-center gap-3">{action}</div> : null}
    </div>
  );
}

/** Links to the list's first page and (when there is another) its last, page `length`. */
function FirstAndLastPage({ params, path, length }: { params: RawParams; path: string; length: number }) {
  return (
    <>
      <Link className={buttonClass.secondary} href={`${path}${withParams(params, { page: undefined })}`}>
        First page
      </Link>
      {length > 1 ? (
        <Link className={buttonClass.primary} href={`${path}${withParams(params, { page: length })}`}>
          Last page ({formatCount(length)})
        </Link>
      ) : null}
    </>
  );
}

/** A page number past the last page: say so and link back. */
export function PastLastPage({ pagination, params, path }: { pagination: Pagination; params: RawParams; path: string }) {
  return (
    <EmptyState title={`There is no page ${formatCount(pagination.page)}`} action={<FirstAndLastPage params={params} path={path} length={pagination.length} />}>
      {pagination.total === 0
        ? "Nothing matches these filters."
        : `These filters match ${formatCount(pagination.total)} records on ${formatCount(pagination.length)} page${pagination.length === 1 ? "" : "s"}.`}
    </EmptyState>
  );
}

/** The query could not be read (page=abc, an unknown option…): explain each problem and link back. */
export function InvalidQuery({ fields, path, params }: { fields: Record<string, string[]>; path: string; params: RawParams }) {
  const cleaned = Object.fromEntries(Object.entries(params).filter(([key]) => !Object.hasOwn(fields, key)));
  return (
    <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-6 py-8">
      <h2 className="text-base font-semibold text-amber-900">This address has values the list cannot use</h2>
      <ul className="mt-3 list-inside list-disc space-y-1 text-sm text-amber-900">
        {Object.entries(fields).map(([key, messages]) => (
          <li key={key}>
            <span className="font-mono">{key}</span>: {messages.join(" ")}
          </li>
        ))}
      </ul>
      <div className="mt-6 flex flex-wrap gap-3">
        <Link className={buttonClass.primary} href={`${path}${withParams(cleaned, { page: undefined })}`}>
          Drop those values
        </Link>
        <Link className={buttonClass.secondary} href={path}>
          Start over
        </Link>
      </div>
    </div>
  );
}

/** A list not shown for a reason the user can act on (lib/list/outcome.ts). */
export function ListProblemNotice({ problem, params, path }: { problem: ListProblem; params: RawParams; path: string }) {
  return (
    <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-6 py-8">
      <h2 className="text-base font-semibold text-amber-900">{problem.title}</h2>
      <p className="mt-2 text-sm text-amber-900">{problem.message}</p>
      <div className="mt-6 flex flex-wrap gap-3">
        {problem.kind === "too_deep" ? (
          <FirstAndLastPage params={params} path={path} length={problem.total === null ? 0 : Math.ceil(problem.total / PER_PAGE)} />
        ) : (
          <Link className={buttonClass.primary} href={`${path}${withParams(params, {})}`}>
            Try again
          </Link>
        )}
      </div>
    </div>
  );
}
