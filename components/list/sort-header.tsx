import Link from "next/link";
import { withParams, type RawParams } from "@/lib/list/params";
import { useListWords } from "./words";
// Its words are useTranslations("list")'s, through useListWords (English outside any provider).

export { PlainHeader } from "./list-table";

type Sort = { column: string; direction: "asc" | "desc" };

/** A column header that sorts by its column; a second click reverses the order. */
export function SortHeader({
  column,
  label,
  sort,
  params,
  path,
  className = "",
  before,
}: {
  column: string;
  label: string;
  sort: Sort;
  params: RawParams;
  path: string;
  className?: string;
  /** Shown before the sort link (a "select all" box). */
  before?: React.ReactNode;
}) {
  const t = useListWords();
  const active = sort.column === column;
  const next = active && sort.direction === "asc" ? `-${column}` : column;
  // The arrow is drawn from the header's aria-sort (app/globals.css, .sort-link).
  const link = (
    <Link href={`${path}${withParams(params, { sort: next, page: undefined })}`} className="sort-link">
      {label}
      <span className="sr-only">{active ? t(sort.direction === "asc" ? "sort.ascending" : "sort.descending") : t("sort.sortable")}</span>
    </Link>
  );
  // Absent rather than undefined: an undefined value still takes room in the RSC payload.
  return (
    <th
      scope="col"
      // With a box before the link, the header is still named by its column alone.
      {...(before ? { "aria-label": label } : {})}
      aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : "none"}
      className={className ? `list-th ${className}` : "list-th"}
    >
      {before ? (
        <>
          {before}
          {link}
        </>
      ) : (
        link
      )}
    </th>
  );
}
