import Link from "next/link";
import { Fragment } from "react";
import { pageWindow, showsPager, type Pagination } from "@/lib/list/pagination";
import { withParams, type RawParams } from "@/lib/list/params";
import { useListWords } from "./words";
// Its words are useTranslations("list")'s, through useListWords (English outside any provider).

// Its look, the current page's and a disabled end's, is app/globals.css's (.pager-item), by their ARIA state.
const item = "pager-item";
/** On a phone: five page numbers and arrows, so the pager keeps to one line. */
const PHONE_BUTTONS = 5;

/** A class that shows an element only at the widths where it belongs (`wide`: 640 px and up). */
const shownOn = (phone: boolean, wide: boolean) => (phone && wide ? "" : phone ? "sm:hidden" : "max-sm:hidden");

/** Plain links (works without JavaScript) that keep every filter and the sort; the first and last page are always one click away. */
export function Pager({ pagination, params, path }: { pagination: Pagination; params: RawParams; path: string }) {
  const t = useListWords();
  if (!showsPager(pagination.total)) return null;
  const { page, length } = pagination;
  const href = (p: number) => `${path}${withParams(params, { page: p === 1 ? undefined : p })}`;
  const wide = pageWindow(page, length);
  const phone = pageWindow(page, length, PHONE_BUTTONS);
  // The phone's pages are among the wide ones (the same window, narrower); a gap in either gets its `…`.
  const gap = (list: number[], p: number) => list.includes(p) && list.indexOf(p) > 0 && list[list.indexOf(p) - 1]! < p - 1;
  const edge = (label: string, arrow: string, target: number, enabled: boolean, rel: string) => {
    const text = (
      <>
        <span className="max-sm:sr-only">{label}</span>
        <span aria-hidden="true" className="sm:hidden">
          {arrow}
        </span>
      </>
    );
    return enabled ? (
      <Link href={href(target)} rel={rel} className={item}>
        {text}
      </Link>
    ) : (
      <span aria-disabled="true" className={item}>
        {text}
      </span>
    );
  };
  return (
    // ‹ and › are mirrored glyphs: in Arabic (right to left) "previous" points right, as the pages run.
    <nav aria-label={t("pager.label")} className="flex flex-wrap items-center justify-center gap-1">
      {edge(t("pager.previous"), "‹", page - 1, page > 1 && page <= length + 1, "prev")}
      {wide.map((p) => (
        <Fragment key={p}>
          {gap(wide, p) || gap(phone, p) ? (
            <span aria-hidden="true" className={`px-1 text-slate-400 ${shownOn(gap(phone, p), gap(wide, p))}`}>
              …
            </span>
          ) : null}
          <Link
            href={href(p)}
            // Absent rather than undefined: an undefined value still takes room in the RSC payload.
            {...(p === page ? { "aria-current": "page" as const } : {})}
            className={phone.includes(p) ? item : `${item} max-sm:hidden`}
          >
            {p}
          </Link>
        </Fragment>
      ))}
      {edge(t("pager.next"), "›", page + 1, page < length, "next")}
    </nav>
  );
}
