import { z } from "zod";
import { problem } from "@/lib/i18n/problem";
import { CONTROL_CHARACTERS_MESSAGE } from "./common";

// The one rule for text people type and others read back, checked as typed (docs/security.md):
// controls, line separators, bidi overrides and isolates (one reverses the text shown after it)
// and broken characters refused anywhere; invisible characters refused at either end, so
// look-alike names are equal. ZWNJ/ZWJ stay allowed inside words: Persian, Indic scripts and emoji need them.

const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const INVISIBLE = "\u200b-\u200f\u061c\u2060\ufeff";
const INVISIBLE_AT_AN_END = new RegExp(`^[\\s${INVISIBLE}]*[${INVISIBLE}]|[${INVISIBLE}][\\s${INVISIBLE}]*$`);
const REFUSED_ANYWHERE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udfff]/gu;
const AT_THE_ENDS = new RegExp(`^[\\s${INVISIBLE}]+|[\\s${INVISIBLE}]+$`, "g");

export const BIDI_CONTROLS_MESSAGE = problem("common.bidiControls");
export const INVISIBLE_AT_AN_END_MESSAGE = problem("common.invisibleAtAnEnd");
const BROKEN_CHARACTER_MESSAGE = problem("common.brokenCharacter");

/** What is wrong with a typed value under the rule above (empty: nothing). */
export function unsafeTextProblems(value: string): string[] {
  const problems: string[] = [];
  if (CONTROLS.test(value)) problems.push(CONTROL_CHARACTERS_MESSAGE);
  if (BIDI_CONTROLS.test(value)) problems.push(BIDI_CONTROLS_MESSAGE);
  if (LONE_SURROGATE.test(value)) problems.push(BROKEN_CHARACTER_MESSAGE);
  if (INVISIBLE_AT_AN_END.test(value)) problems.push(INVISIBLE_AT_AN_END_MESSAGE);
  return problems;
}

/** An uploaded name made to pass the rule: what it refuses is taken out. May be empty. */
export const withoutUnsafeText = (value: string): string => value.replace(REFUSED_ANYWHERE, "").replace(AT_THE_ENDS, "");

/** A typed string checked as typed; chain `.trim()`, `.min()`, `.max()`. `message`: for a non-string. */
export function safeText(message: string) {
  return z.string({ message }).superRefine((value, ctx) => {
    for (const problem of unsafeTextProblems(value)) ctx.addIssue({ code: "custom", message: problem });
  });
}
