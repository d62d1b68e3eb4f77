// Node-only start-up work, imported by instrumentation.ts when the server boots.
import { ConfigError, config } from "@/lib/config";
import { actionsKeyNotice, actionsKeyProblem } from "./actions-key";
import { log } from "@/lib/telemetry/log";

/** Set by server.ts: the console's own HTTP server decides the caller's address. */
export const SERVED_BY_CONSOLE = "CONSOLE_HTTP_SERVER";

export function checkEnvironment() {
  const problems: string[] = [];
  let settings: ReturnType<typeof config> | undefined;
  try {
    settings = config();
  } catch (error) {
    if (!ConfigError.is(error)) throw error;
    problems.push(error.message);
  }
  if (process.env.NODE_ENV === "production" && process.env.NEXT_PHASE !== "phase-production-build") {
    if (process.env[SERVED_BY_CONSOLE] !== "1") {
      problems.push("Start the console with `npm run serve` (server.ts), not `next start`: only its server knows the caller's address.");
    }
    if (settings) {
      const problem = actionsKeyProblem(process.cwd(), settings);
      if (problem) problems.push(problem);
      const notice = actionsKeyNotice(settings);
      if (notice) log.warn(notice);
    }
  }
  if (problems.length) {
    log.fatal(`Refusing to start:\n${problems.join("\n")}`);
    process.exit(1);
  }
}
