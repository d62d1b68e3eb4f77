import { withParams, type RawParams } from "@/lib/list/params";
import type { ViewsState } from "@/lib/views/menu";
import { VIEW_LISTS } from "@/lib/views/resources";
import { ViewsMenuPanel } from "./views-menu-panel";

/** The list toolbar's Views menu: a disclosure of plain links, an Edit per view one may change, and the Save view form (docs/decisions/0027-saved-views.md). */
export function ViewsMenu({ state, params }: { state: ViewsState; params: RawParams }) {
  const back = `${VIEW_LISTS[state.resource].path}${withParams(params, { page: undefined })}`;
  return <ViewsMenuPanel state={state} manageHref={`/views?resource=${state.resource}&back=${encodeURIComponent(back)}`} />;
}
