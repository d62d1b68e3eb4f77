import { z } from "zod";

/** next-auth hands this to the client as the sign-in's `error`: the login page then asks for the code. */
export const TWO_FACTOR_REQUIRED = "two_factor_required";

export const loginSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, "Enter your email.").max(254).email("Enter a valid email address."),
  password: z.string().min(1, "Enter your password.").max(200, "That password is too long."),
  /** A two-factor code or a recovery code, for an enrolled user (blank: none given). */
  code: z.string().trim().max(40, "That code is too long.").optional(),
});
export type LoginInput = z.input<typeof loginSchema>;

const codeField = z.string().trim().min(1, "Enter a code.").max(40, "That code is too long.");

/** Confirming two-factor set-up: a current code of the app just set up. */
export const twoFactorConfirmSchema = z.object({ code: z.string().trim().regex(/^\d{6}$/, "Type the 6 digits your app shows.") });

/** Starting the set-up: the current password (a single sign-on session sends none and confirms by a recent sign-in). */
export const twoFactorStartSchema = z.object({ password: z.string().max(200).default("") });

/** Turning two-factor off: the password and a code (or a recovery code). */
export const twoFactorOffSchema = z.object({ password: z.string().max(200).default(""), code: codeField });
