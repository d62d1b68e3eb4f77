"use server";

import { z } from "zod";
import { getProblemWords } from "@/lib/i18n/server";
import type { ActionResult } from "@/lib/actions";
import { databaseAppError } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { fieldWords, problem } from "@/lib/i18n/problem";
import { fieldErrors } from "@/lib/validation/common";
import { setPasswordWithLink } from "@/lib/users/links";
import { passwordSetSchema, type PasswordSetInput } from "@/lib/users/schema";
import { logError } from "@/lib/telemetry/log";

// Open to anyone who holds a link: the link's secret is the credential (single use, 24 hours,
// stored as a hash). Setting the password ends every session of its user.

export async function setPasswordAction(input: PasswordSetInput): Promise<ActionResult<{ email: string }>> {
  // Not an action() (no guard): its messages are put into the reader's words here, as action() does.
  const words = (await getProblemWords());
  const result = await setPassword(input);
  if (result.ok) return result.message ? { ...result, message: words(result.message) } : result;
  return { ...result, fieldErrors: fieldWords(result.fieldErrors, words), formError: result.formError && words(result.formError) };
}

async function setPassword(input: PasswordSetInput): Promise<ActionResult<{ email: string }>> {
  const parsed = passwordSetSchema.safeParse(input);
  if (!parsed.success) return { ok: false, fieldErrors: fieldErrors(parsed.error as z.ZodError), formError: problem("common.checkFields") };
  try {
    const { email } = await setPasswordWithLink(parsed.data.token, parsed.data.password);
    return { ok: true, data: { email }, message: problem("auth.passwordSet") };
  } catch (error) {
    const known = AppError.is(error) ? error : databaseAppError(error);
    if (known) return { ok: false, fieldErrors: known.fields, formError: known.message };
    logError(error, "set-password failed");
    return { ok: false, formError: problem("common.failed") };
  }
}
