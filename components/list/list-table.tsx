/** The frame every list's table shares. */
export function ListTable({ caption, header, children, bodyClassName = "" }: { caption: string; header: React.ReactNode; children: React.ReactNode; bodyClassName?: string }) {
  return (
    // relative: positioned screen-reader text scrolls with the table instead of widening the page.
    <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>{header}</tr>
        </thead>
        <tbody className={`divide-y divide-slate-100 ${bodyClassName}`}>{children}</tbody>
      </table>
    </div>
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
