import type { StorageProblem } from "./types";

// What kind of failure a storage error is, for the health report and logs, from socket codes, timeouts and S3's own codes.

const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "ENOTCONN",
  "ESTALE",
  "EIO",
]);
const DENIED = new Set([
  "AccessDenied",
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "ExpiredToken",
  "InvalidToken",
  "CredentialsProviderError",
  "EACCES",
  "EPERM",
]);

export function storageProblem(error: unknown): StorageProblem {
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; cause?: unknown } | null;
  if (!e || typeof e !== "object") return "error";
  const code = e.code ?? "";
  if (e.name === "TimeoutError" || e.name === "AbortError" || code === "ETIMEDOUT" || e.name === "RequestTimeout") return "timeout";
  if (UNREACHABLE.has(code)) return "unreachable";
  if (DENIED.has(code) || DENIED.has(e.name ?? "") || e.$metadata?.httpStatusCode === 403) return "denied";
  // An AggregateError (every address refused) or a wrapped socket error.
  const inner = (e as { errors?: unknown[] }).errors?.[0] ?? e.cause;
  if (inner && inner !== error) {
    const nested = storageProblem(inner);
    if (nested !== "error") return nested;
  }
  return "error";
}
