import { createTranslator } from "use-intl/core";
import { catalogue, type Messages } from "./catalogues";
import type { Locale } from "./locales";
import { problemWords } from "./problem";

type Words = Parameters<typeof problemWords>[0];

/**
 * Problem keys put into words outside a component: the server's action results and API errors, in
 * `locale`, from its catalogue or the request's own (lib/i18n/server.ts, getProblemWords).
 */
export function problemsIn(locale: Locale, messages: Messages = catalogue(locale)): (text: string) => string {
  let words = made.get(messages);
  if (!words) {
    const t = createTranslator({ locale, messages, namespace: "problems" }) as unknown as Words;
    made.set(messages, (words = (text) => problemWords(t, text)));
  }
  return words;
}

const made = new WeakMap<Messages, (text: string) => string>();
