import type { z } from "zod";

// One /api/v1 operation as the route handler and the OpenAPI document both read it: the route
// parses with these schema objects, the document is generated from them (lib/openapi/document.ts),
// so the two cannot tell different stories (docs/decisions/0029-openapi-from-zod.md).

/** Who may call: anyone; a signed-in user (session or token); an administrator; a session only (no token). */
export type Access = "anyone" | "signed_in" | "admin" | "session";

/** A JSON answer's schema, a file's media types (without parameters: `text/csv`), or no body (204). */
export type Answer = z.ZodType | { file: readonly [string, ...string[]] } | null;

export type ApiOperation = {
  method: "get" | "post" | "patch" | "delete";
  /** The OpenAPI path: `{id}` where the app/ folder has `[id]`. */
  path: `/api/v1/${string}`;
  /** The section of the document (its tag). */
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  /** The token scope that may call it besides a session (docs/API.md, lib/tokens/scope.ts); none: sessions only. */
  tokenScope?: "read" | "export";
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** A JSON body. */
  body?: z.ZodType;
  /** A multipart/form-data body. */
  multipart?: z.ZodObject;
  /** The answers besides the errors, by status. */
  answers: Partial<Record<200 | 201 | 202 | 204, Answer>>;
  /** Error statuses this operation has besides those its access, parameters and body imply. */
  errors?: ErrorStatus[];
};

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503;

/** Keeps the literal types of the schemas, so a route's `op.body.parse()` is typed as precisely as the schema. */
export const operation = <const T extends ApiOperation>(op: T): T => op;
