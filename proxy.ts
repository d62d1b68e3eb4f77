import { NextResponse, type NextRequest } from "next/server";
import { config as settingsOf } from "@/lib/config";
import { actionBodyProblem } from "@/lib/framework-gaps/action-body";
import { databaseReachable } from "@/lib/health/sentinel";
import { refusedListQuery } from "@/lib/list/pages";
import { refusedBeforeRendering } from "@/lib/load/early-refusal";
import { RETRY_AFTER_SECONDS } from "@/lib/health/unavailable";
import { createNonce, securityHeaders } from "@/lib/security/headers";
import { crossSiteWrite } from "@/lib/security/origin";
import { tooManyRequestsPage, unavailablePage } from "@/lib/security/unavailable-page";

// The pages' one front door (docs/decisions/0020-policy-one-place-per-concern.md): security headers
// with a CSP nonce, 403 for cross-site writes, 503 during an outage, 400 for bad action bodies and
// refused list queries, 429 before a user's excess heavy page renders (pages cannot set a status).
// No protection: every page, action and route checks the session itself (lib/auth/guards.ts), and a
// page sends a signed-out visitor to /login (lib/auth/page-guards.ts).

export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const nonce = createNonce();
  const headers = securityHeaders("page", { nonce, development: process.env.NODE_ENV === "development" });
  const isApi = pathname.startsWith("/api/");
  const isRead = request.method === "GET" || request.method === "HEAD";
  // server.ts chose it (lib/telemetry/request.ts); the JSON refusals below quote it.
  const requestId = request.headers.get("x-request-id") ?? undefined;

  const finish = (response: NextResponse) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };

  if (crossSiteWrite(request)) {
    return finish(NextResponse.json({ error: { code: "cross_site_request", message: "Forms are accepted from the console's own pages only.", request_id: requestId } }, { status: 403 }));
  }

  // DATABASE_SENTINEL=off leaves outages to the pages' own error boundary (status 500 then).
  const settings = settingsOf();
  const databaseUrl = settings.DATABASE_SENTINEL ? settings.DATABASE_URL : undefined;
  if (!isApi && isRead && databaseUrl && !databaseReachable(databaseUrl)) {
    const response = new NextResponse(request.method === "HEAD" ? null : unavailablePage(nonce, request.headers.get("accept-language")), {
      status: 503,
      headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": String(RETRY_AFTER_SECONDS) },
    });
    return finish(response);
  }

  // Every path: an unknown one renders the 404 page, which runs actions too.
  if (request.method === "POST") {
    const problem = await actionBodyProblem(request);
    if (problem) return finish(NextResponse.json({ error: { code: "invalid_action_body", message: problem, request_id: requestId } }, { status: 400 }));
  }

  if (isRead) {
    const refused = await refusedBeforeRendering(pathname, request.cookies);
    if (refused) {
      const response = new NextResponse(request.method === "HEAD" ? null : tooManyRequestsPage(nonce, refused.message, request.headers.get("accept-language")), {
        status: 429,
        headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": String(refused.retryAfter) },
      });
      return finish(response);
    }
  }

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]!);
  // Not for RSC requests: Next's client reloads the whole page on a non-200 answer.
  const isNavigation = isRead && !request.headers.has("rsc") && !request.headers.has("next-router-prefetch");
  const status = isNavigation && refusedListQuery(pathname, request.nextUrl.searchParams) ? 400 : 200;
  return finish(NextResponse.next({ request: { headers: requestHeaders }, status }));
}

export const config = {
  // The one matcher (server.ts imports it; Next reads this literal as written). /_next/image is in:
  // with the optimizer off it answers the 404 page, which needs the nonce.
  // /metrics answers during an outage too, and takes no session: like the health check, not behind it.
  matcher: ["/((?!_next/static/|favicon.ico$|api/v1/|api/health$|metrics$).*)"],
};
