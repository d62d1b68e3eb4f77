// The `Next-Router-State-Tree` request header as Next.js 16 reads it (the client router sends
// the tree of segments it shows, URI-encoded JSON, with every RSC request). Next throws on one it
// cannot parse and answers 500; lib/server/incoming.ts refuses it first with a 400. This mirrors
// Next's own check (next/dist/server/app-render/parse-and-validate-flight-router-state.js and the
// `flightRouterStateSchema` of app-render/types.js); tests/unit/router-state.test.ts holds the two
// to the same answers, so an upgrade of Next that changes the shape fails there.

/** Next refuses a larger header (about 2,000 nested segments). */
const MAX_ROUTER_STATE_LENGTH = 20 * 2000;

/**
 * Deeper trees are refused here though within that size: Next's validator recurses and runs out
 * of stack somewhere between 1,000 and 2,000 levels (then answers 500). The console's deepest
 * route is a handful of levels; a real client never comes near.
 */
export const MAX_ROUTER_STATE_DEPTH = 64;

const DYNAMIC_PARAM_TYPES = new Set(["c", "ci(..)(..)", "ci(.)", "ci(..)", "ci(...)", "oc", "d", "di(..)(..)", "di(.)", "di(..)", "di(...)"]);
const REFRESH_MARKERS = new Set(["refetch", "inside-shared-layout", "metadata-only"]);

const isString = (v: unknown): v is string => typeof v === "string";

/** A segment: its name, or [param name, cache key, param type, static siblings | null]. */
function isSegment(value: unknown): boolean {
  if (isString(value)) return true;
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    isString(value[0]) &&
    isString(value[1]) &&
    isString(value[2]) &&
    DYNAMIC_PARAM_TYPES.has(value[2]) &&
    (value[3] === null || (Array.isArray(value[3]) && value[3].every(isString)))
  );
}

/**
 * [segment, {parallel route: tree}, [url, kind]?, refresh marker?, number?, string?]. As in
 * Next's schema, the children may be any object (an array too) and trailing members may be absent.
 */
function isFlightRouterState(value: unknown, depth = 0): boolean {
  if (depth > MAX_ROUTER_STATE_DEPTH) return false;
  if (!Array.isArray(value) || value.length < 2 || value.length > 6) return false;
  const [segment, children, url, refresh, flags, extra] = value as unknown[];
  if (!isSegment(segment)) return false;
  if (children === null || typeof children !== "object") return false;
  if (!Object.values(children as Record<string, unknown>).every((child) => isFlightRouterState(child, depth + 1))) return false;
  if (url != null && !(Array.isArray(url) && url.length === 2 && isString(url[0]) && isString(url[1]))) return false;
  if (refresh != null && !(isString(refresh) && REFRESH_MARKERS.has(refresh))) return false;
  if (flags != null && typeof flags !== "number") return false;
  if (extra !== undefined && !isString(extra)) return false;
  return true;
}

/** Whether Next can read this header value (absent is fine). */
export function isReadableRouterState(header: string | undefined): boolean {
  if (header === undefined) return true;
  if (header.length > MAX_ROUTER_STATE_LENGTH) return false;
  try {
    return isFlightRouterState(JSON.parse(decodeURIComponent(header)));
  } catch {
    return false;
  }
}
