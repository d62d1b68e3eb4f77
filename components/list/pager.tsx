import Link from "next/link";
import { Fragment } from "react";
import { pageWindow, showsPager, type Pagination } from "@/lib/list/pagination";
import { withParams, type RawParams } from "@/lib/list/params";

const item = "inline-flex min-w-9 items-center justify-center rounded-md px-2.5 py-1.5 text-sm font-medium";

/** Plain links (works without JavaScript) that keep every filter and the sort; the first and last page are always one click away. */
export function Pager({ pagination, params, path }: { pagination: Pagination; params: RawParams; path: string }) {
  if (!showsPager(pagination.total)) return null;
  const { page, length } = pagination;
  const href = (p: number) => `${path}${withParams(params, { page: p === 1 ? undefined : p })}`;
  const edge = (label: string, target: number, enabled: boolean, rel: string) =>
    enabled ? (
      <Link href={href(target)} rel={rel} className={`${item} text-slate-700 hover:bg-slate-100`}>
        {label}
      </Link>
    ) : (
      <span aria-disabled="true" className={`${item} cursor-not-allowed text-slate-400`}>
        {label}
      </span>
    );
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-center gap-1">
      {edge("Previous", page - 1, page > 1 && page <= length + 1, "prev")}
      {pageWindow(page, length).map((p, i, pages) => (
        <Fragment key={p}>
          {i > 0 && p > pages[i - 1]! + 1 ? <span aria-hidden="true" className="px-1 text-slate-400">…</span> : null}
          <Link
            href={href(p)}
            aria-current={p === page ? "page" : undefined}
            className={`${item} ${p === page ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"}`}
          >
            {p}
          </Link>
        </Fragment>
      ))}
      {edge("Next", page + 1, page < length, "next")}
    </nav>
  );
}
