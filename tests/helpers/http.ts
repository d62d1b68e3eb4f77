import { expect } from "vitest";

/** Asserts that a server action or page refused with Next's forbidden()/unauthorized(). */
export async function expectRefused(promise: Promise<unknown>, status: 401 | 403) {
  await expect(promise).rejects.toMatchObject({ digest: `NEXT_HTTP_ERROR_FALLBACK;${status}` });
}

/** A request to a route handler, as the browser or an API client would send it. */
export function apiRequest(path: string, init: { method?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {}) {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return new Request(`http://localhost${path}`, { method: init.method ?? "GET", headers, body });
}

export const routeContext = (params: { id: string }) => ({ params: Promise.resolve(params) });
