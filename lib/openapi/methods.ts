import type { ApiOperation } from "./operation";
import { API_OPERATIONS } from "./operations";

// Next answers a method a route file does not export with a bare 405: no body, no Allow. server.ts
// answers it first, in docs/API.md's error shape with the Allow RFC 9110 asks for, from the
// operations: the one list of the API's methods, which tests/unit/openapi-coverage.test.ts keeps
// equal to the route files' exports.

/** Each /api/v1 route's Allow, by its pattern as Next's manifest names it (`/api/v1/branches/[id]`). */
export function apiAllowedMethods(operations: readonly ApiOperation[] = API_OPERATIONS): Map<string, string> {
  const byRoute = new Map<string, Set<string>>();
  for (const op of operations) {
    const pattern = op.path.replace(/\{(\w+)\}/g, "[$1]");
    // Next answers OPTIONS itself (204 with Allow), and HEAD wherever there is a GET.
    const methods = byRoute.get(pattern) ?? new Set(["OPTIONS"]);
    methods.add(op.method.toUpperCase());
    if (op.method === "get") methods.add("HEAD");
    byRoute.set(pattern, methods);
  }
  return new Map([...byRoute].map(([pattern, methods]) => [pattern, [...methods].sort().join(", ")]));
}
