import "server-only";
import { NextResponse } from "next/server";
import { z } from "zod";
import { AuthError } from "@/lib/auth/guards";
import { AppError } from "@/lib/errors";
import { fieldErrors } from "@/lib/validation/common";

export type ApiErrorBody = { error: { code: string; message: string; fields?: Record<string, string[]> } };

export function apiError(status: number, code: string, message: string, fields?: Record<string, string[]>) {
  const body: ApiErrorBody = { error: { code, message, ...(fields ? { fields } : {}) } };
  return NextResponse.json(body, { status, headers: { "Cache-Control": "no-store" } });
}

export function json(data: unknown, status = 200) {
  return NextResponse.json(data, { status, headers: { "Cache-Control": "no-store" } });
}

/** Turns what a handler throws into API.md's error shape; never a stack trace or SQL. */
export function toErrorResponse(error: unknown) {
  if (error instanceof AuthError) {
    return error.status === 401
      ? apiError(401, "unauthorized", error.message)
      : apiError(403, "forbidden", error.message);
  }
  if (error instanceof z.ZodError) return apiError(400, "invalid_input", "Some values are not valid.", fieldErrors(error));
  if (error instanceof AppError) return apiError(error.status, error.code, error.message, error.fields);
  console.error(error);
  return apiError(500, "internal_error", "Something went wrong on our side. Try again later.");
}

type Handler<C> = (request: Request, context: C) => Promise<Response>;

/** Every route handler goes through this, so errors are answered the same way everywhere. */
export function route<C = unknown>(handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    try {
      return await handler(request, context);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}

/** Reads a JSON body: 415 unless it is JSON, 400 when it does not parse. */
export async function readJson(request: Request, maxBytes = 64 * 1024): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new AppError(415, "unsupported_media_type", "Send the body as JSON (Content-Type: application/json).");
  }
  const text = await request.text();
  if (Buffer.byteLength(text) > maxBytes) throw new AppError(413, "too_large", "The body is too large.");
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new AppError(400, "invalid_json", "The body is not valid JSON.");
  }
}
