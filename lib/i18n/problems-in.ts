import { createTranslator } from "use-intl/core";
import { catalogue } from "./catalogues";
import type { Locale } from "./locales";
import { problemWords } from "./problem";

type Words = Parameters<typeof problemWords>[0];

/** Problem keys put into words outside a component: the server's action results and API errors, in `locale`. */
export function problemsIn(locale: Locale): (text: string) => string {
  let words = made.get(locale);
  if (!words) {
    const t = createTranslator({ locale, messages: catalogue(locale), namespace: "problems" }) as unknown as Words;
    made.set(locale, (words = (text) => problemWords(t, text)));
  }
  return words;
}

const made = new Map<Locale, (text: string) => string>();
