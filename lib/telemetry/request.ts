import crypto from "node:crypto";
import { scopeSlot } from "@/lib/request-scope";

// What the logs and metrics know of the request being served: its id (chosen by server.ts, which
// sees every request first) and who it turned out to be (noted by the session and token checks).
// Not "server-only": server.ts reads it too (docs/decisions/0026-logs-and-metrics.md).

/** The request header that carries the request's id, from the client and from server.ts to the app. */
export const REQUEST_ID_HEADER = "x-request-id";

/** What the console takes as a client's own request id (docs/API.md "Operating it"). */
const CLIENT_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The client's id when it is one the logs can carry as written, else a new one. */
export function requestIdFrom(given: string | string[] | undefined): string {
  return typeof given === "string" && CLIENT_ID.test(given) ? given : crypto.randomUUID();
}

export type RequestFacts = {
  readonly id: string;
  userId?: number;
  tokenId?: number;
};

const facts = scopeSlot<RequestFacts>("telemetry.request");

/** Runs `run` as the request these facts describe; what it learns is written into them. */
export const withRequestFacts = <T>(request: RequestFacts, run: () => T): T => facts.run(request, run);

/** The current request's id, if a request is being served. */
export const currentRequestId = (): string | undefined => facts.get()?.id;

/** Who the current request is: its session's user, or its API token and the token's user. */
export function noteCaller(userId: number, tokenId?: number) {
  const request = facts.get();
  if (!request) return;
  request.userId = userId;
  if (tokenId !== undefined) request.tokenId = tokenId;
}
