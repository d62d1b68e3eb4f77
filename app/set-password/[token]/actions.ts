"use server";

import { z } from "zod";
import type { ActionResult } from "@/lib/actions";
import { databaseAppError } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { fieldErrors } from "@/lib/validation/common";
import { setPasswordWithLink } from "@/lib/users/links";
import { passwordSetSchema, type PasswordSetInput } from "@/lib/users/schema";
import { logError } from "@/lib/telemetry/log";

// Open to anyone who holds a link: the link's secret is the credential (single use, 24 hours,
// stored as a hash). Setting the password ends every session of its user.

export async function setPasswordAction(input: PasswordSetInput): Promise<ActionResult<{ email: string }>> {
  const parsed = passwordSetSchema.safeParse(input);
  if (!parsed.success) return { ok: false, fieldErrors: fieldErrors(parsed.error as z.ZodError), formError: "Check the highlighted fields." };
  try {
    const { email } = await setPasswordWithLink(parsed.data.token, parsed.data.password);
    return { ok: true, data: { email }, message: "Your password is set. Sign in with it." };
  } catch (error) {
    const known = AppError.is(error) ? error : databaseAppError(error);
    if (known) return { ok: false, fieldErrors: known.fields, formError: known.message };
    logError(error, "set-password failed");
    return { ok: false, formError: "Something went wrong on our side. Try again." };
  }
}
