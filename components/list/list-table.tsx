/**
 * The scrolling frame every list's table shares: a labelled region keyboard users can focus and
 * scroll, and, while columns lie past its right edge, a shadow there and a "scroll for more
 * columns" hint (CSS scroll timelines, app/globals.css .table-frame: no script).
 */
export function TableFrame({ label, landmark = false, className = "", children }: { label: string; landmark?: boolean; className?: string; children: React.ReactNode }) {
  return (
    <div className="table-frame">
      <p className="table-more">
        Scroll sideways for more columns <span aria-hidden="true">→</span>
      </p>
      {/* relative: positioned screen-reader text scrolls with the table instead of widening the page. */}
      {/* A landmark only for a page's one main table: landmarks' names must differ, and tables share a page. */}
      <div role={landmark ? "region" : "group"} aria-label={label} tabIndex={0} className={`relative overflow-auto rounded-lg border border-slate-200 bg-white shadow-sm ${className}`}>
        {children}
      </div>
      <div className="table-more-shadow" aria-hidden="true" />
    </div>
  );
}

/** The frame every list's table shares. */
export function ListTable({ caption, header, children, bodyClassName = "" }: { caption: string; header: React.ReactNode; children: React.ReactNode; bodyClassName?: string }) {
  return (
    <TableFrame label={`${caption} table`}>
      <table className="list-table min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>{header}</tr>
        </thead>
        <tbody className={`divide-y divide-slate-100 ${bodyClassName}`}>{children}</tbody>
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
