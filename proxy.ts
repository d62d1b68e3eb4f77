import { NextResponse, type NextRequest } from "next/server";
import { sessionCookieName } from "@/lib/auth/cookies";
import { config as settingsOf } from "@/lib/config";
import { databaseReachable } from "@/lib/health/sentinel";
import { refusedListQuery } from "@/lib/list/pages";
import { refusedBeforeRendering } from "@/lib/load/early-refusal";
import { actionBodyProblem } from "@/lib/server/action-body";
import { RETRY_AFTER_SECONDS } from "@/lib/health/unavailable";
import { createNonce, securityHeaders } from "@/lib/security/headers";
import { crossSiteWrite } from "@/lib/security/origin";
import { tooManyRequestsPage, unavailablePage } from "@/lib/security/unavailable-page";

// Runs before every request except Next's static build output, the icon and the JSON API (see
// `config.matcher`, the one place that says so: server.ts reads it from here):
// 1. every answer gets the pages' security headers (lib/security/headers.ts) with a fresh CSP
//    nonce: the policy goes on the request too, where Next reads the nonce to put it on its own
//    scripts;
// 2. a POST from another site (a server action, a sign-in) is refused with a 403
//    (lib/security/origin.ts; Next's own check of actions answers 500);
// 3. while the database sentinel knows PostgreSQL is gone, pages answer a 503 page at once
//    (a page cannot set that status itself; the JSON API answers 503 on its own);
// 4. a convenience: console pages requested without a session cookie go straight to /login;
// 5. a page POST whose body Next's server-action decoder would throw on (and answer 500) is
//    refused with a 400 (lib/server/action-body.ts says which bodies);
// 6. a list page whose query its schema refuses (`travel_date_from=0000-01-01`) answers 400, the
//    page rendering its explanation (lib/list/pages.ts), as the JSON API answers 400. Not for the
//    client router's RSC requests: Next's client treats a non-200 answer as a failed navigation
//    and reloads the whole page, where the explanation then shows with its 400;
// 7. a heavy page (lists, bulk confirmation, imports) asked while every one of its user's heavy
//    requests is taken answers 429 with Retry-After at once, before anything renders
//    (lib/load/early-refusal.ts). RSC requests too: the client then loads the page itself.
//
// Nothing here is the only protection: every page, action and route checks the session itself
// (lib/auth/guards.ts), and Next checks an action's origin too (answering 500). A request that
// skips this proxy loses the pages' headers, the 4xx answers above and the shortcut to /login.

const CONSOLE_PAGES = /^\/(subscribers|branches|users|account|audit)(\/|$)/;

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const nonce = createNonce();
  const headers = securityHeaders("page", { nonce, development: process.env.NODE_ENV === "development" });
  const isApi = pathname.startsWith("/api/");
  const isRead = request.method === "GET" || request.method === "HEAD";

  const finish = (response: NextResponse) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };

  if (crossSiteWrite(request)) {
    return finish(NextResponse.json({ error: { code: "cross_site_request", message: "Forms are accepted from the console's own pages only." } }, { status: 403 }));
  }

  // DATABASE_SENTINEL=off leaves outages to the pages' own error boundary (status 500 then).
  const settings = settingsOf();
  const databaseUrl = settings.DATABASE_SENTINEL ? settings.DATABASE_URL : undefined;
  if (!isApi && isRead && databaseUrl && !databaseReachable(databaseUrl)) {
    const response = new NextResponse(request.method === "HEAD" ? null : unavailablePage(nonce), {
      status: 503,
      headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": String(RETRY_AFTER_SECONDS) },
    });
    return finish(response);
  }

  // Every path the proxy sees: an unknown one (`/api/V1/x`) renders the 404 page, which runs actions too.
  if (request.method === "POST") {
    const problem = await actionBodyProblem(request);
    if (problem) return finish(NextResponse.json({ error: { code: "invalid_action_body", message: problem } }, { status: 400 }));
  }

  const isNavigation = isRead && !request.headers.has("rsc") && !request.headers.has("next-router-prefetch");
  if (isNavigation && CONSOLE_PAGES.test(pathname) && !request.cookies.has(sessionCookieName())) {
    // The same address the page's own guard would send them to (lib/auth/page-guards.ts).
    const login = new URL(`/login?callbackUrl=${encodeURIComponent(`${pathname}${search}`)}`, request.url);
    return finish(NextResponse.redirect(login));
  }

  if (isRead) {
    const refused = await refusedBeforeRendering(pathname, request.cookies);
    if (refused) {
      const response = new NextResponse(request.method === "HEAD" ? null : tooManyRequestsPage(nonce, refused.message), {
        status: 429,
        headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": String(refused.retryAfter) },
      });
      return finish(response);
    }
  }

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]!);
  // The status Next gives the page it renders next (the page itself cannot set one).
  const status = isNavigation && refusedListQuery(pathname, request.nextUrl.searchParams) ? 400 : 200;
  return finish(NextResponse.next({ request: { headers: requestHeaders }, status }));
}

export const config = {
  // Everything but Next's immutable build output, the icon and the JSON API: pages, next-auth's
  // routes, server actions, RSC requests and the 404s of unknown paths. The JSON API
  // needs no nonce, and a proxy run would cost it a large share of its time. /_next/image is in: with the
  // optimizer off (next.config.js) it answers the 404 page, which needs the nonce. Next reads
  // this literal from the file as written; server.ts imports it.
  matcher: ["/((?!_next/static/|favicon.ico$|api/v1/|api/health$).*)"],
};
