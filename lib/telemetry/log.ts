import pino from "pino";
import pretty from "pino-pretty";
import { logLevel } from "@/lib/config";
import { processWide } from "@/lib/process-wide";
import { currentRequestId } from "./request";

// The console's one logger: JSON lines on standard output, a readable form in development. Every
// line written while a request is served carries its id. Secrets are never passed to it; the paths
// below are redacted in case an object that holds one is (docs/decisions/0026-logs-and-metrics.md).

const SECRETS = [
  ...["password", "new_password", "password_hash", "passwordHash", "token", "token_hash", "tokenHash", "secret", "authorization", "cookie"],
  ...["set_password_url", "setPasswordUrl", "url", "query", "filters"],
];

/** Where an object holding a secret could sit in a line. */
const HOLDERS = ["headers", "req.headers", "request", "request.headers", "input", "user", "data", "body", "details"];

/** Each secret's name at the top of a line and under each holder: named paths, as pino's wildcards cost some 0.1 ms a line (docs/performance.md). */
export const REDACTED_PATHS = [...SECRETS, ...HOLDERS.flatMap((holder) => SECRETS.map((name) => `${holder}.${name}`))];

function makeLogger(): pino.Logger {
  const options: pino.LoggerOptions = {
    level: logLevel(),
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    mixin: () => {
      const id = currentRequestId();
      return id === undefined ? {} : { request_id: id };
    },
  };
  if (process.env.NODE_ENV === "development") return pino(options, pretty({ sync: true, ignore: "pid,hostname" }));
  // pino's own standard output: buffered, and flushed when the process exits (even by process.exit()).
  return pino(options);
}

/** Process-wide: server.ts and every layer of the build write through one logger (lib/process-wide.ts). */
export const log: pino.Logger = processWide("telemetry.log", makeLogger);

/** A line for what went wrong: the error's stack once, with the request's id when one is served. */
export function logError(error: unknown, message: string, fields: Record<string, unknown> = {}) {
  log.error({ ...fields, err: error }, message);
}
