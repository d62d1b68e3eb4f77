import { useListWords } from "./words";
// Its words are useTranslations("list")'s, through useListWords (English outside any provider).

/**
 * The scrolling frame every list's table shares: a labelled region keyboard users can focus and
 * scroll, and, while columns lie past its right edge, a shadow there and a "scroll for more
 * columns" hint (CSS scroll timelines, app/globals.css .table-frame: no script).
 */
export function TableFrame({ label, landmark = false, className = "", children }: { label: string; landmark?: boolean; className?: string; children: React.ReactNode }) {
  const t = useListWords();
  return (
    <div className="table-frame">
      <p className="table-more">
        {t("table.more")}{" "}
        <span aria-hidden="true" className="inline-block rtl:rotate-180">
          →
        </span>
      </p>
      {/* relative: positioned screen-reader text scrolls with the table instead of widening the page. */}
      {/* A landmark only for a page's one main table: landmarks' names must differ, and tables share a page. */}
      {/* Its frame is app/globals.css's (.table-frame > [role]); a class only when one is given. */}
      <div role={landmark ? "region" : "group"} aria-label={label} tabIndex={0} {...(className ? { className } : {})}>
        {children}
      </div>
      <div className="table-more-shadow" aria-hidden="true" />
    </div>
  );
}

/** The frame every list's table shares; `className`: the table's own (its cells' rules in app/globals.css). */
export function ListTable({ caption, header, children, className, bodyClassName = "" }: { caption: string; header: React.ReactNode; children: React.ReactNode; className?: string; bodyClassName?: string }) {
  const t = useListWords();
  return (
    <TableFrame label={t("table.label", { caption })}>
      <table className={`list-table min-w-full divide-y divide-slate-200 text-sm${className ? ` ${className}` : ""}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>{header}</tr>
        </thead>
        <tbody className={bodyClassName ? `divide-y divide-slate-100 ${bodyClassName}` : "divide-y divide-slate-100"}>{children}</tbody>
      </table>
    </TableFrame>
  );
}

/** A column header that does not sort; here rather than beside SortHeader, so client tables can import it without the list parser. */
export function PlainHeader({ label, className = "" }: { label: string; className?: string }) {
  return (
    <th scope="col" className={`list-th whitespace-normal ${className}`}>
      {label}
    </th>
  );
}
