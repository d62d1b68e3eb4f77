// The `Next-Router-State-Tree` header as Next.js reads it: Next answers 500 to one it cannot parse,
// so lib/server/incoming.ts refuses it first. tests/unit/router-state.test.ts holds this to Next's
// own check, so an upgrade that changes the shape fails there.

/** Next refuses a larger header. */
const MAX_ROUTER_STATE_LENGTH = 20 * 2000;

/** Next's validator recurses and can run out of stack within that size; no real client comes near this depth. */
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

/** [segment, {parallel route: tree}, [url, kind]?, refresh marker?, number?, string?], as Next's schema. */
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
