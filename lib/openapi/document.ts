import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from "zod-openapi";
import { apiErrorSchema } from "@/lib/http/error-schema";
import type { ApiOperation, ErrorStatus } from "./operation";
import { API_OPERATIONS } from "./operations";

// The OpenAPI 3.1 document of /api/v1, generated from the operations' zod schemas
// (docs/decisions/0029-openapi-from-zod.md): served at /api/v1/openapi.json, shown at /api/docs.

const ERROR_MEANING: Record<ErrorStatus, string> = {
  400: "Bad input: `fields` names each bad value.",
  401: "Not signed in, or a token that is unknown, expired or revoked (`invalid_token`, with WWW-Authenticate).",
  403: "Not allowed: the role, the token's scope, a session's write from another site, or `two_factor_required` (REQUIRE_TWO_FACTOR covers the user, who has not set up two-factor codes yet).",
  404: "No such record (or not yours).",
  409: "Conflict with the record as it is now.",
  410: "Gone for good: `erased_data`, the file held personal data erased since (the message says why).",
  413: "The body is too large.",
  415: "The body is not of the type this operation reads.",
  422: "Refused by a rule the console always keeps (`last_admin`: there is always one active administrator).",
  429: "Too many requests: see Retry-After.",
  503: "The database or the file storage cannot be reached, or an import holds the rows: see Retry-After.",
};

const ACCESS: Record<ApiOperation["access"], string> = {
  anyone: "Anyone, no session needed.",
  signed_in: "Signed in.",
  admin: "Administrators.",
  session: "Signed in with a session (not with a token); your own tokens only.",
};

/** The error statuses an operation can answer: its own, and those its access, parameters and body imply. */
export function errorStatuses(op: ApiOperation): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(op.errors);
  if (op.access !== "anyone") statuses.add(401).add(403);
  if (op.tokenScope) statuses.add(429);
  if (op.params) statuses.add(404);
  if (op.query || op.body || op.multipart) statuses.add(400);
  if (op.body) statuses.add(413).add(415);
  if (op.access !== "anyone") statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

function security(op: ApiOperation): Record<string, string[]>[] {
  if (op.access === "anyone") return [];
  return op.tokenScope ? [{ session: [] }, { bearer: [op.tokenScope] }] : [{ session: [] }];
}

/** server.ts gives every answer, errors included, the request's id. */
const requestIdHeader = { "X-Request-Id": { $ref: "#/components/headers/RequestId" } };

function answers(op: ApiOperation): ZodOpenApiResponsesObject {
  const out: ZodOpenApiResponsesObject = {};
  for (const [status, answer] of Object.entries(op.answers)) {
    if (answer === undefined) continue;
    if (answer === null) out[status as `${1 | 2 | 3 | 4 | 5}${string}`] = { description: "Done; no body.", headers: requestIdHeader };
    else if ("file" in answer) out[status as "200"] = { description: "The file, as an attachment.", headers: requestIdHeader, content: Object.fromEntries(answer.file.map((type) => [type, { schema: { type: "string" } }])) };
    else out[status as "200"] = { description: "OK", headers: requestIdHeader, content: { "application/json": { schema: answer } } };
  }
  for (const status of errorStatuses(op)) out[String(status) as "400"] = { $ref: `#/components/responses/Error${status}` };
  return out;
}

function toOpenApi(op: ApiOperation): ZodOpenApiOperationObject {
  const scope = op.tokenScope ? ` API tokens with the \`${op.tokenScope}\` scope${op.tokenScope === "read" ? " (or `export`)" : ""} too.` : "";
  return {
    operationId: `${op.method}${op.path.replace(/^\/api\/v1/, "").replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
    tags: [op.tag],
    summary: op.summary,
    description: [`**Who:** ${ACCESS[op.access]}${scope}`, op.description].filter(Boolean).join("\n\n"),
    security: security(op),
    "x-access": op.access,
    ...(op.params || op.query ? { requestParams: { ...(op.params ? { path: op.params } : {}), ...(op.query ? { query: op.query } : {}) } } : {}),
    ...(op.body ? { requestBody: { required: !op.query, content: { "application/json": { schema: op.body } } } } : {}),
    ...(op.multipart ? { requestBody: { required: true, content: { "multipart/form-data": { schema: op.multipart } } } } : {}),
    responses: answers(op),
  };
}

export function apiDocument(operations: readonly ApiOperation[] = API_OPERATIONS) {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`${op.method.toUpperCase()} ${op.path} is defined twice.`);
    item[op.method] = toOpenApi(op);
  }
  const statuses = Object.keys(ERROR_MEANING).map(Number) as ErrorStatus[];
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Branch and subscriber console API",
      version: "1",
      description:
        "JSON in and out, UTF-8, timestamps in ISO 8601 UTC, dates as YYYY-MM-DD. Lists answer 10 records a page with `pagination`. " +
        "Errors answer `{\"error\": {\"code\", \"message\", \"fields\"?}}`. The contract in prose: docs/API.md.",
    },
    tags: [...new Set(operations.map((op) => op.tag))].map((name) => ({ name })),
    components: {
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: "next-auth.session-token",
          description: "The console's session cookie, from signing in (`__Secure-next-auth.session-token` when served over HTTPS). Writes must come from the console's own origin.",
        },
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "An API token made on /account. The listed scope is the one needed: `read` (every GET list and record) or `export` (read, and the subscriber export). A token acts as its user.",
        },
      },
      headers: {
        RequestId: { description: "The request's id, as the error's `request_id`: quote it when asking for help.", schema: { type: "string" } },
      },
      responses: Object.fromEntries(
        statuses.map((status) => [`Error${status}`, { description: ERROR_MEANING[status], headers: requestIdHeader, content: { "application/json": { schema: apiErrorSchema } } }]),
      ),
    },
    paths,
  });
}
