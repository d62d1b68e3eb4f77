import "server-only";
import { readProblem } from "@/lib/i18n/problem";
import { isLocale } from "@/lib/i18n/locales";
import { scopeSlot } from "@/lib/request-scope";
import { importWordsIn, WORDED_VALUES, type Words } from "./words";

// What a refusal says, as it is thrown to the API or an action: a problem key, which they put into
// words themselves; but several problems, or one whose values are words too (fields, columns:
// lib/imports/words.ts), are put into words here, in the language of the API's answer
// (lib/http/api.ts's slot: the request's Accept-Language; the console's upload form sends the
// page's), English elsewhere.
const apiLocale = scopeSlot<string>("http.api-locale");

export function sayable(problems: readonly string[]): string {
  const values = problems.length === 1 ? readProblem(problems[0]!)?.values : undefined;
  if (problems.length === 1 && !(values && WORDED_VALUES.some((k) => k in values))) return problems[0]!;
  return problems.map(answerWords()).join(" ");
}

/** An import's messages in the language of the API's answer, English elsewhere: a failed import's `error` as the API shows it. */
export function answerWords(): Words {
  const locale = apiLocale.get();
  return importWordsIn(isLocale(locale) ? locale : "en");
}
