import { z } from "zod";
import { CONTROL_CHARACTERS_MESSAGE } from "./common";

// The one rule for text people type into the console and others read back (branch names,
// subscribers' names, sheet names): checked on the value as typed, before it is trimmed.
//
// Refused anywhere in the value:
// - C0 and C1 controls and DEL (tabs and line breaks too: a name is one line), and the Unicode
//   line and paragraph separators (U+2028, U+2029);
// - bidirectional embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069): one such
//   value reverses the text shown after it, in a table row, an audit entry or an export;
// - a broken character (an unpaired UTF-16 surrogate).
// Refused at either end: characters that show nothing there (zero-width space, the joiners,
// left-to-right and right-to-left marks, the Arabic letter mark, word joiner, BOM), so two
// names that look the same are the same. The zero-width non-joiner and joiner (U+200C, U+200D)
// stay allowed inside a word: Persian (می‌خواهم), Kurdish, Indic scripts and emoji need them.

const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const INVISIBLE = "\u200b-\u200f\u061c\u2060\ufeff";
const INVISIBLE_AT_AN_END = new RegExp(`^[\\s${INVISIBLE}]*[${INVISIBLE}]|[${INVISIBLE}][\\s${INVISIBLE}]*$`);
const REFUSED_ANYWHERE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udfff]/gu;
const AT_THE_ENDS = new RegExp(`^[\\s${INVISIBLE}]+|[\\s${INVISIBLE}]+$`, "g");

export const BIDI_CONTROLS_MESSAGE = "Remove the characters that change the direction of the text around it (U+202A–U+202E, U+2066–U+2069).";
export const INVISIBLE_AT_AN_END_MESSAGE = "Remove the invisible characters at the start or the end.";
const BROKEN_CHARACTER_MESSAGE = "This text has a broken character: type it again.";

/** What is wrong with a typed value under the rule above (empty: nothing). */
export function unsafeTextProblems(value: string): string[] {
  const problems: string[] = [];
  if (CONTROLS.test(value)) problems.push(CONTROL_CHARACTERS_MESSAGE);
  if (BIDI_CONTROLS.test(value)) problems.push(BIDI_CONTROLS_MESSAGE);
  if (LONE_SURROGATE.test(value)) problems.push(BROKEN_CHARACTER_MESSAGE);
  if (INVISIBLE_AT_AN_END.test(value)) problems.push(INVISIBLE_AT_AN_END_MESSAGE);
  return problems;
}

/**
 * A name that no one typed here (an uploaded file's) made to pass the rule: what it refuses
 * anywhere is taken out, and spaces and invisible characters at either end. May be empty.
 */
export function withoutUnsafeText(value: string): string {
  return value.replace(REFUSED_ANYWHERE, "").replace(AT_THE_ENDS, "");
}

/**
 * A string typed by a person, checked as typed; chain `.trim()`, `.min()`, `.max()` after it.
 * `message` is the one for a value that is not a string at all.
 */
export function safeText(message: string) {
  return z.string({ message }).superRefine((value, ctx) => {
    for (const problem of unsafeTextProblems(value)) ctx.addIssue({ code: "custom", message: problem });
  });
}
