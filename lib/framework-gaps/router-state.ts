import { parseAndValidateFlightRouterState } from "next/dist/server/app-render/parse-and-validate-flight-router-state.js";

// Next answers 500 to a `Next-Router-State-Tree` header it cannot read; lib/server/incoming.ts asks
// Next's own reader first and refuses with a 400 (README.md here: when to remove it).

/** Deeper than any route; Next's reader takes time that grows fast with depth, so it never sees one. */
export const MAX_ROUTER_STATE_DEPTH = 64;

/** Whether a tree ([segment, {route: tree}, …]) nests more than `levels` deep. */
const deeperThan = (tree: unknown, levels: number): boolean =>
  Array.isArray(tree) && (levels < 0 || Object.values((tree[1] ?? {}) as object).some((child) => deeperThan(child, levels - 1)));

/** Whether Next can read this header value (absent is fine). */
export function isReadableRouterState(header: string | string[] | undefined): boolean {
  try {
    if (typeof header === "string" && deeperThan(JSON.parse(decodeURIComponent(header)), MAX_ROUTER_STATE_DEPTH)) return false;
    parseAndValidateFlightRouterState(header);
    return true;
  } catch {
    return false; // Next's refusals, and what is not even JSON
  }
}
