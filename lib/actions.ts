import "server-only";
import { forbidden, unauthorized } from "next/navigation";
import { getProblemWords } from "@/lib/i18n/server";
import type { z } from "zod";
import { AuthError } from "@/lib/auth/guards";
import type { SessionUser } from "@/lib/auth/permissions";
import type { Principal } from "@/lib/auth/principal";
import { databaseAppError, isQueryCancelled } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { fieldWords, problem } from "@/lib/i18n/problem";
import { logError } from "@/lib/telemetry/log";
import { fieldErrors } from "@/lib/validation/common";

export type ActionResult<T = undefined> =
  | { ok: true; data: T; message?: string }
  | { ok: false; fieldErrors?: Record<string, string[]>; formError?: string; details?: Record<string, unknown> };

/** Every server action: guard first (actions can be called directly), then parse, then run. */
export function action<S extends z.ZodType, T, U extends SessionUser | Principal = SessionUser>(
  guard: () => Promise<U>,
  schema: S,
  run: (input: z.output<S>, user: U) => Promise<ActionResult<T>>,
) {
  return async (input: z.input<S>): Promise<ActionResult<T>> => {
    let user: U;
    try {
      user = await guard();
    } catch (error) {
      if (AuthError.is(error)) {
        if (error.status === 401) unauthorized();
        forbidden();
      }
      throw error;
    }
    const result = await outcome(schema, input, user, run);
    // Messages carry problem keys (lib/i18n/problem.ts): put into the caller's language here, once.
    const words = (await getProblemWords());
    if (result.ok) return result.message ? { ...result, message: words(result.message) } : result;
    return { ...result, fieldErrors: fieldWords(result.fieldErrors, words), formError: result.formError && words(result.formError) };
  };
}

async function outcome<S extends z.ZodType, T, U>(schema: S, input: unknown, user: U, run: (input: z.output<S>, user: U) => Promise<ActionResult<T>>): Promise<ActionResult<T>> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, fieldErrors: fieldErrors(parsed.error), formError: problem("common.checkFields") };
  try {
    return await run(parsed.data, user);
  } catch (error) {
    const known = AppError.is(error) ? error : databaseAppError(error);
    if (known) return { ok: false, fieldErrors: known.fields, formError: known.message, ...(known.details ? { details: known.details } : {}) };
    // The client went away and the statement was cancelled (server.ts): nobody reads this.
    if (isQueryCancelled(error)) return { ok: false, formError: problem("common.cancelled") };
    logError(error, "action failed");
    return { ok: false, formError: problem("common.failed") };
  }
}
