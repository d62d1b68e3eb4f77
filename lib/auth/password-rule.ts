import { z } from "zod";
import { problem } from "@/lib/i18n/problem";

// The password rule's shape (length), light enough for every form's bundle. Its strength check
// (word lists of a megabyte) is lib/auth/password-policy.ts: the server's decision, and the
// browser's hint loaded only when a new password is typed.

const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

export const passwordShape = z
  .string({ message: problem("auth.passwordRequired") })
  .min(PASSWORD_MIN, problem("auth.passwordTooShort", { min: PASSWORD_MIN }))
  .max(PASSWORD_MAX, problem("auth.passwordTooLong", { max: PASSWORD_MAX }));
