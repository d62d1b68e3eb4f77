import "server-only";
import { NextResponse } from "next/server";
import { z } from "zod";
import { authenticateBearer, bearerOf, withTokenPrincipal } from "@/lib/auth/bearer";
import { AuthError } from "@/lib/auth/guards";
import { databaseAppError, isQueryCancelled } from "@/lib/db/errors";
import { withQuerySignal } from "@/lib/db/scope";
import { AppError } from "@/lib/errors";
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from "@/lib/health/unavailable";
import { crossSiteWrite } from "@/lib/security/origin";
import { fieldWords, problem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import type { Locale } from "@/lib/i18n/locales";
import { fromAcceptLanguage } from "@/lib/i18n/negotiate";
import { scopeSlot } from "@/lib/request-scope";
import { logError, log } from "@/lib/telemetry/log";
import { currentRequestId, noteCaller } from "@/lib/telemetry/request";
import { fieldErrors } from "@/lib/validation/common";
import { readLimitedText } from "./body";
import { repeatedKey } from "./json-keys";

type ApiErrorBody = { error: { code: string; message: string; fields?: Record<string, string[]>; request_id?: string } & Record<string, unknown> };

/** docs/API.md's error shape, with the request's id (the X-Request-Id of the answer) to quote to an operator. */
export function apiError(status: number, code: string, message: string, fields?: Record<string, string[]>, details?: Record<string, unknown>) {
  const requestId = currentRequestId();
  // Codes and field names stay neutral; the words follow the request's Accept-Language, else English (docs/API.md, Languages).
  const words = apiWords();
  const body: ApiErrorBody = {
    error: { ...details, code, message: words(message), ...(fields ? { fields: fieldWords(fields, words) } : {}), ...(requestId ? { request_id: requestId } : {}) },
  };
  return NextResponse.json(body, { status });
}

export const json = (data: unknown, status = 200) => NextResponse.json(data, { status });

function unavailable() {
  const response = apiError(503, "unavailable", UNAVAILABLE_MESSAGE);
  response.headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  return response;
}

/** Turns what a handler throws into docs/API.md's error shape; never a stack trace or SQL. */
export function toErrorResponse(error: unknown) {
  if (AuthError.is(error)) {
    if (error.status === 401) return apiError(401, "unauthorized", error.message);
    return apiError(403, error.reason ?? "forbidden", error.message);
  }
  if (AppError.is(error) && error.code === "invalid_token") {
    // RFC 6750: a refused bearer token says which scheme to use, and nothing about why.
    const response = apiError(401, error.code, error.message);
    response.headers.set("WWW-Authenticate", 'Bearer realm="console"');
    return response;
  }
  if (error instanceof z.ZodError) return apiError(400, "invalid_input", problem("common.apiInvalid"), fieldErrors(error));
  const known = AppError.is(error) ? error : databaseAppError(error);
  if (known) {
    const response = apiError(known.status, known.code, known.message, known.fields, known.details);
    if (known.retryAfter !== undefined) response.headers.set("Retry-After", String(known.retryAfter));
    return response;
  }
  // The client went away and its statement was cancelled: nobody reads this answer.
  if (isQueryCancelled(error)) return apiError(499, "client_closed_request", problem("common.apiCancelled"));
  if (isDatabaseUnavailable(error)) {
    log.warn(`database unavailable: ${error instanceof Error ? error.message.trim().split("\n").at(-1) : String(error)}`);
    return unavailable();
  }
  logError(error, "request failed");
  return apiError(500, "internal_error", problem("common.apiFailed"));
}

type Handler<C> = (request: Request, context: C) => Promise<Response>;

/** The language of an API answer's words: the request's Accept-Language, else English. */
const apiLocale = scopeSlot<Locale>("http.api-locale");

/** Inside a route handler, the language of its answer (its lists sort in it too); undefined elsewhere. */
export const apiAnswerLocale = (): Locale | undefined => apiLocale.get();

/** Problem keys in the words of the API's answer: its error's message, and a job's stored `error` (export, bulk change). */
export const apiWords = (): ((text: string) => string) => problemsIn(apiLocale.get() ?? "en");

/** Every route handler goes through this: one error shape, and statements cancelled when the client goes away. */
export function route<C = unknown>(handler: Handler<C>): Handler<C> {
  return async (request, context) => apiLocale.run(fromAcceptLanguage(request.headers.get("accept-language")) ?? "en", () => routed(handler, request, context));
}

async function routed<C>(handler: Handler<C>, request: Request, context: C): Promise<Response> {
  try {
    return await withQuerySignal(request.signal, async () => {
      const token = bearerOf(request);
      if (token === null) {
        // A bearer token is no ambient credential: only a session's writes need their origin checked.
        if (crossSiteWrite(request)) throw new AppError(403, "cross_site_request", problem("http.crossSite"));
        return handler(request, context);
      }
      const principal = await authenticateBearer(token, request);
      noteCaller(principal.user.id, principal.token.id);
      // A token reaches no set-up, so a pending one is refused here, whatever the route's guard.
      if (principal.twoFactor === "pending") throw new AuthError(403, "two_factor_required");
      return withTokenPrincipal(principal, () => handler(request, context));
    });
  } catch (error) {
    return toErrorResponse(error);
  }
}

/** Reads a JSON body: 415 unless it is JSON, 413 past `maxBytes` (never read further), 400 when it does not parse or names a key twice. */
export async function readJson(request: Request, maxBytes = 64 * 1024): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  // The media type itself, not a prefix of another (`application/json-patch+json`).
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new AppError(415, "unsupported_media_type", problem("http.sendJson"));
  }
  const text = await readLimitedText(request, maxBytes);
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : {};
  } catch {
    throw new AppError(400, "invalid_json", problem("http.invalidJson"));
  }
  const repeated = repeatedKey(text);
  if (repeated) {
    const name = repeated.map((part) => String(part).slice(0, 40)).join(".");
    throw new AppError(400, "invalid_input", problem("http.keyTwice", { name: JSON.stringify(name) }), Object.fromEntries([[name, [problem("http.sentTwice")]]]));
  }
  return value;
}
