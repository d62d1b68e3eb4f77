import { z } from "zod";

// The password rule's shape (length), light enough for every form's bundle. Its strength check
// (word lists of a megabyte) is lib/auth/password-policy.ts: the server's decision, and the
// browser's hint loaded only when a new password is typed.

const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

export const passwordShape = z
  .string({ message: "Enter a password." })
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`);
