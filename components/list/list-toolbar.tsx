import type { RawParams } from "@/lib/list/params";
import { FilterBar, type ListFilters } from "./filter-bar";
import { FilterChips } from "./filter-chips";

/** Every list's toolbar, from its filters as data (docs/decisions/0018-toolbar-every-list-one-toolbar.md). */
export function ListToolbar({ filters, params, path }: { filters: ListFilters; params: RawParams; path: string }) {
  return (
    <div className="space-y-3">
      <FilterBar filters={filters} />
      <FilterChips fields={[filters.search, ...filters.fields]} params={params} path={path} />
    </div>
  );
}
