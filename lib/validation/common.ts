import { z } from "zod";

/** `{ field: [messages] }` from a zod error, for forms and the API's `error.fields`. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** Control characters (NUL and friends) have no place in names or filters; PostgreSQL refuses NUL. */
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
export const CONTROL_CHARACTERS_MESSAGE = "Remove the control characters from this value.";
export const noControlCharacters = (value: string) => !CONTROL_CHARACTERS.test(value);
