import { z } from "zod";
import { problem } from "@/lib/i18n/problem";

/** next-auth hands this to the client as the sign-in's `error`: the login page then asks for the code. */
export const TWO_FACTOR_REQUIRED = "two_factor_required";
/** The same, when the password was right and the code was right but already spent. */
export const TWO_FACTOR_CODE_USED = "two_factor_code_used";

export const loginSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, problem("signIn.enterEmail")).max(254).email(problem("signIn.validEmail")),
  password: z.string().min(1, problem("signIn.enterPassword")).max(200, problem("signIn.passwordTooLong")),
  /** A two-factor code or a recovery code, for an enrolled user (blank: none given). */
  code: z.string().trim().max(40, problem("signIn.codeTooLong")).optional(),
});
export type LoginInput = z.input<typeof loginSchema>;

const codeField = z.string().trim().min(1, problem("signIn.enterCode")).max(40, problem("signIn.codeTooLong"));

/** Confirming two-factor set-up: a current code of the app just set up. */
export const twoFactorConfirmSchema = z.object({ code: z.string().trim().regex(/^\d{6}$/, problem("signIn.sixDigits")) });

/** Starting the set-up: the current password (a single sign-on session sends none and confirms by a recent sign-in). */
export const twoFactorStartSchema = z.object({ password: z.string().max(200).default("") });

/** Turning two-factor off: the password and a code (or a recovery code). */
export const twoFactorOffSchema = z.object({ password: z.string().max(200).default(""), code: codeField });
