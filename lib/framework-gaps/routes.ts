import fs from "node:fs";
import path from "node:path";

// A request's route as its pattern (`/api/v1/subscribers/[id]`), for the logs and the metrics'
// labels: never the path itself, whose ids would make every line and label different. Matched
// against the routes Next wrote into its build (routes-manifest.json), static routes first, then
// dynamic ones in the manifest's order, as Next's router does: Next tells a custom server no request's
// route (docs/decisions/0026-logs-and-metrics.md; README.md here: when to remove it).

type ManifestRoute = { page: string; regex: string };
export type RoutesManifest = { staticRoutes?: ManifestRoute[]; dynamicRoutes?: ManifestRoute[] };

/** A path no route of the build answers (Next's 404 page). */
export const UNMATCHED_ROUTE = "(unmatched)";

/** Next's own files: many paths, one label each. */
const NEXT_FILES: [prefix: string, label: string][] = [
  ["/_next/static/", "/_next/static/[...path]"],
  ["/_next/", "/_next/[...path]"],
];

/** The route pattern of a path, by the build's manifest. */
export function routeMatcher(manifest: RoutesManifest): (pathname: string) => string {
  const exact = new Map((manifest.staticRoutes ?? []).map((r) => [r.page, r.page]));
  const dynamic = (manifest.dynamicRoutes ?? []).map((r) => ({ page: r.page, regex: new RegExp(r.regex) }));
  return (pathname) => {
    const bare = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
    const found = exact.get(bare);
    if (found) return found;
    for (const [prefix, label] of NEXT_FILES) if (pathname.startsWith(prefix)) return label;
    for (const route of dynamic) if (route.regex.test(pathname)) return route.page;
    return UNMATCHED_ROUTE;
  };
}

/**
 * The matcher of the build in `distDir` (`.next`, or `.next/dev` while developing). In development
 * Next writes the manifest as it compiles routes, so an unmatched path reads it again when it changed.
 */
export function buildRoutes(distDir: string, { development = false } = {}): (pathname: string) => string {
  const file = path.join(distDir, "routes-manifest.json");
  let stamp = -1;
  let match: (pathname: string) => string = () => UNMATCHED_ROUTE;
  const load = () => {
    try {
      const mtime = fs.statSync(file).mtimeMs;
      if (mtime === stamp) return;
      match = routeMatcher(JSON.parse(fs.readFileSync(file, "utf8")) as RoutesManifest);
      stamp = mtime;
    } catch {
      // No manifest (yet): every path is unmatched until there is one.
    }
  };
  load();
  if (!development) return match;
  return (pathname) => {
    const route = match(pathname);
    if (route !== UNMATCHED_ROUTE) return route;
    load();
    return match(pathname);
  };
}
