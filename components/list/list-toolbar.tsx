import { ClientMessages } from "@/components/client-messages";
import { LIST_CLIENT_WORDS } from "@/lib/i18n/client-words";
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
  const chips = <FilterChips fields={filters.search ? [filters.search, ...filters.fields] : filters.fields} params={params} path={path} emptyQuery={emptyQuery} />;
  return (
    <div className="space-y-3">
      {/* Absent rather than undefined: an undefined value still takes room in the RSC payload. */}
      {/* The filter bar is client code: it brings its own words, whatever groups the page hands its other parts. */}
      <ClientMessages namespaces={LIST_CLIENT_WORDS}>
        <FilterBar filters={filters} {...(emptyQuery ? { emptyQuery } : {})} />
      </ClientMessages>
      {views ? (
        // Views sits with the chips, under the search: the search box keeps the toolbar's width.
        <div className="flex flex-wrap items-start gap-2">
          <div className="min-w-0 flex-1">
            {chips}
          </div>
          <div className="ms-auto">{views}</div>
        </div>
      ) : (
        chips
      )}
    </div>
  );
}
