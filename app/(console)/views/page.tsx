import type { Metadata } from "next";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageUser } from "@/lib/auth/page-guards";
import { consoleOrigin, safeReturnPath } from "@/lib/http/return-to";
import { rawParams, withParams, type RawParams } from "@/lib/list/params";
import { viewsState } from "@/lib/views/menu";
import { VIEW_LISTS, VIEW_RESOURCES, type ViewResource } from "@/lib/views/resources";
import { ViewActions } from "./view-actions";

export const metadata: Metadata = { title: "Saved views" };

const TITLES: Record<ViewResource, string> = { subscribers: "Subscriber views", branches: "Branch views" };

/**
 * A list's saved views, to rename, share, point at the filters of the list the user came from,
 * make the default or delete; a page of its own so the list's menu stays a list of links.
 */
export default async function ViewsPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const resource: ViewResource = VIEW_RESOURCES.find((r) => r === params.resource) ?? "subscribers";
  const path = VIEW_LISTS[resource].path;
  const back = safeReturnPath(typeof params.back === "string" ? params.back : path, consoleOrigin(), path);
  const user = await requirePageUser(`/views?resource=${resource}&back=${encodeURIComponent(back)}`);
  // The list the user came from: its filters and columns are what "Update" saves.
  const backUrl = new URL(back, "http://localhost");
  const from = backUrl.pathname === path ? rawParams(backUrl.searchParams) : {};
  const state = await viewsState(user, resource, from);
  // Only when the user came from the list: opened on its own, the page has no filters to offer.
  const update = state.query === null || typeof params.back !== "string" ? null : { query: state.query, columns: state.columns, href: `${path}${withParams(from, {})}` };

  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{TITLES[resource]}</h1>
        <a href={back} className={buttonClass.secondary}>
          Back to the list
        </a>
      </div>
      <p className="text-sm text-slate-600">
        Your views and the views shared with everyone. You change your own; administrators also change shared ones. A view that no longer opens (the
        list&rsquo;s filters changed since it was saved) says why: update it to the list&rsquo;s filters or delete it.
      </p>
      {update ? (
        <p className="text-sm text-slate-600">
          The list you came from: <code className="break-all">{update.query || "every row"}</code>. &ldquo;Update&rdquo; gives a view these filters and sort
          {update.columns ? " and its columns" : ""}.
        </p>
      ) : null}
      {state.views.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
          No saved views yet. Use <strong>Views → Save view</strong> on the list to keep its filters.
        </p>
      ) : (
        <ul className="space-y-3" aria-label={TITLES[resource]}>
          {state.views.map((view) => (
            <li key={view.id} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm">
              <div className="flex flex-wrap items-center gap-2">
                <h2 className="text-base font-semibold">
                  {view.href ? (
                    <a href={view.href} className="text-brand-700 underline-offset-2 hover:underline">
                      <bdi>{view.name}</bdi>
                    </a>
                  ) : (
                    <bdi>{view.name}</bdi>
                  )}
                </h2>
                {view.shared ? <Badge tone="blue">Shared</Badge> : <Badge>Private</Badge>}
                {view.isDefault ? <Badge tone="green">Your default</Badge> : null}
                {view.problem ? <Badge tone="red">Broken</Badge> : null}
                <span className="text-xs text-slate-500">
                  by <bdi>{view.own ? "you" : view.owner}</bdi>
                </span>
              </div>
              <p className="text-xs text-slate-600">
                {view.query ? (
                  <>
                    Filters and sort: <code className="break-all">{view.query}</code>
                  </>
                ) : (
                  "Every row, in the list's own order."
                )}
              </p>
              {view.problem ? (
                <p className="rounded-md bg-red-50 px-3 py-2 text-red-800">This view no longer opens: {view.problem}</p>
              ) : null}
              <ViewActions view={view} resource={resource} update={update} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
