import NextAuth from "next-auth";
import { cookies } from "next/headers";
import { NextRequest } from "next/server";
import { SSO_PROVIDER_ID, authOptions } from "@/lib/auth/options";
import { secureCookies, sessionCookieName } from "@/lib/auth/cookies";
// eslint-disable-next-line no-restricted-imports -- next-auth's session endpoint answers with the session itself, for the client
import { currentSession } from "@/lib/auth/session";
import { duringSignIn } from "@/lib/auth/sign-in";
import { duringSsoCallback } from "@/lib/auth/sso-failures";
import { config, singleSignOn } from "@/lib/config";
import { readSignInBody } from "@/lib/auth/sign-in-body";
import { apiError, json, toErrorResponse } from "@/lib/http/api";
import { consoleOrigin, safeReturnPath } from "@/lib/http/return-to";

// next-auth's routes, limited to what the console uses (docs/decisions/0009-one-credentials-path.md):
// csrf, providers, the console's own session reading, sign-in and sign-out, and with single sign-on
// its start, its callback and the error address next-auth sends a refused answer to (which goes on
// to /login); anything else is 404 or 405. Return addresses reach next-auth only through
// safeReturnPath (it answers 500 to bad ones).

const handler = NextAuth(authOptions);

type Context = { params: Promise<{ nextauth: string[] }> };

const ROUTES: Record<string, "GET" | "POST"> = {
  csrf: "GET",
  providers: "GET",
  session: "GET",
  "callback/credentials": "POST",
  signout: "POST",
};
const SSO_ROUTES: Record<string, "GET" | "POST"> = {
  [`signin/${SSO_PROVIDER_ID}`]: "POST",
  [`callback/${SSO_PROVIDER_ID}`]: "GET",
  signin: "GET",
  error: "GET",
};

async function check(method: "GET" | "POST", context: Context): Promise<Response | null> {
  const route = (await context.params).nextauth.join("/");
  const routes = singleSignOn() ? { ...ROUTES, ...SSO_ROUTES } : ROUTES;
  const allowed = Object.hasOwn(routes, route) ? routes[route] : undefined;
  if (!allowed) return apiError(404, "not_found", "There is nothing here.");
  if (route === "callback/credentials" && !config().PASSWORD_SIGN_IN) {
    return apiError(403, "password_sign_in_off", "Sign-in with a password is turned off: use single sign-on.");
  }
  if (allowed !== method) {
    const response = apiError(405, "method_not_allowed", `Use ${allowed} here.`);
    response.headers.set("Allow", allowed);
    return response;
  }
  return null;
}

export async function GET(request: NextRequest, context: Context) {
  try {
    const refused = await check("GET", context);
    if (refused) return refused;
    const [action] = (await context.params).nextauth;
    if (action === "session") return await sessionAnswer();
    const url = await safeCallbackInputs(request);
    const run = () => handler(new NextRequest(url, { headers: request.headers }), context) as Promise<Response>;
    return await (action === "callback" ? duringSsoCallback(run) : run());
  } catch (error) {
    return toErrorResponse(error);
  }
}

export async function POST(request: NextRequest, context: Context) {
  try {
    const refused = await check("POST", context);
    if (refused) return refused;
    const fields = await readSignInBody(request);
    const url = await safeCallbackInputs(request);
    const callbackUrl = fields.get("callbackUrl");
    // On the console's public origin, as next-auth's redirect callback judges it (a request's own URL may name another host).
    const origin = new URL(consoleOrigin()).origin;
    if (callbackUrl !== null) fields.set("callbackUrl", `${origin}${safeReturnPath(callbackUrl, origin)}`);
    const canonical = new NextRequest(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: fields.toString(),
    });
    const { result, retryAfter } = await duringSignIn(() => handler(canonical, context) as Promise<Response>);
    if (retryAfter > 0) {
      const url = new URL("/login?error=TooManyAttempts", request.url).toString();
      return Response.json(
        { url, error: { code: "too_many_attempts", message: "Too many sign-in attempts. Try again later." } },
        { status: 429, headers: { "Retry-After": String(retryAfter), "Cache-Control": "no-store" } },
      );
    }
    return result;
  } catch (error) {
    return toErrorResponse(error);
  }
}

/** callbackUrl made safe; a callback-url cookie next-auth would not have written (planted by a sibling site) dropped. */
async function safeCallbackInputs(request: NextRequest): Promise<URL> {
  const url = new URL(request.url);
  const origin = new URL(consoleOrigin()).origin;
  const query = url.searchParams.get("callbackUrl");
  if (query !== null) url.searchParams.set("callbackUrl", `${origin}${safeReturnPath(query, origin)}`);
  const jar = await cookies();
  const name = `${secureCookies() ? "__Secure-" : ""}next-auth.callback-url`;
  const planted = jar.get(name)?.value;
  if (planted !== undefined && planted !== `${origin}${safeReturnPath(planted, origin)}`) jar.delete(name);
  return url;
}

/** next-auth's session shape, from the console's own reading; a dead cookie is cleared. */
async function sessionAnswer(): Promise<Response> {
  const session = await currentSession();
  if (session) {
    const { principal: { user }, expires } = session;
    return json({ user: { name: user.name, email: user.email, role: user.role }, expires: expires.toISOString() });
  }
  const jar = await cookies();
  const name = sessionCookieName();
  if (jar.has(name)) jar.set(name, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax", secure: secureCookies() });
  return json({});
}
