import pino from "pino";
import pretty from "pino-pretty";
import { logLevel } from "@/lib/config";
import { processWide } from "@/lib/process-wide";
import { currentRequestId } from "./request";

// The console's one logger: JSON lines on standard output, a readable form in development. Every
// line written while a request is served carries its id. Secrets are never passed to it; the paths
// below are redacted in case an object that holds one is (docs/decisions/XXXX-logs-and-metrics.md).

const SECRETS = [
  ...["password", "new_password", "password_hash", "passwordHash", "token", "token_hash", "tokenHash", "secret", "authorization", "cookie"],
  ...["set_password_url", "setPasswordUrl", "url", "query", "filters"],
];

/** Each secret's name at the top of a line, one level down, and under `headers`. */
export const REDACTED_PATHS = SECRETS.flatMap((name) => [name, `*.${name}`, `*.headers.${name}`]);

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
  // Synchronous, so nothing written before process.exit() is lost.
  if (process.env.NODE_ENV === "development") return pino(options, pretty({ sync: true, ignore: "pid,hostname" }));
  return pino(options);
}

/** Process-wide: server.ts and every layer of the build write through one logger (lib/process-wide.ts). */
export const log: pino.Logger = processWide("telemetry.log", makeLogger);

/** A line for what went wrong: the error's stack once, with the request's id when one is served. */
export function logError(error: unknown, message: string, fields: Record<string, unknown> = {}) {
  log.error({ ...fields, err: error }, message);
}
