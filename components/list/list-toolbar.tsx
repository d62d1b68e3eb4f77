import type { RawParams } from "@/lib/list/params";
import { FilterBar, type ToolbarFilters } from "./filter-bar";
import { FilterChips } from "./filter-chips";

/**
 * Every list's toolbar, from its filters as data (docs/decisions/0018-toolbar-every-list-one-toolbar.md).
 * `views`: the list's Views menu, when it has saved views; `emptyQuery`: what an address with no
 * filter left says when a bare address would open a default view (docs/decisions/0027-saved-views.md).
 */
export function ListToolbar({
  filters,
  params,
  path,
  views,
  emptyQuery,
}: {
  filters: ToolbarFilters;
  params: RawParams;
  path: string;
  views?: React.ReactNode;
  emptyQuery?: string;
}) {
  return (
    <div className="space-y-3">
      {views ? (
        // On a phone the Views button goes under the filters, so the search keeps the width.
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <div className="min-w-0 flex-1">
            <FilterBar filters={filters} emptyQuery={emptyQuery} />
          </div>
          <div className="self-end sm:self-auto sm:pt-3">{views}</div>
        </div>
      ) : (
        <FilterBar filters={filters} emptyQuery={emptyQuery} />
      )}
      <FilterChips fields={filters.search ? [filters.search, ...filters.fields] : filters.fields} params={params} path={path} emptyQuery={emptyQuery} />
    </div>
  );
}
