import { createTranslator } from "use-intl/core";
import { config } from "@/lib/config";
import { FIELD, isField } from "@/lib/subscribers/fields";
import { catalogue, type Messages } from "./catalogues";
import { INTL_TAG, type Locale } from "./locales";
import { LIST, problemWords, type ProblemValues } from "./problem";

type Words = Parameters<typeof problemWords>[0];

/**
 * Problem keys put into words outside a component: the server's action results and API errors, in
 * `locale`, from its catalogue or the request's own (lib/i18n/server.ts, getProblemWords). Dates
 * in the console's zone; a `fields` value listing subscriber fields (listOf) names them by their labels,
 * a `problems` value listing problems says each.
 */
export function problemsIn(locale: Locale, messages: Messages = catalogue(locale)): (text: string) => string {
  let words = made.get(messages);
  if (!words) {
    // The language's Intl tag (en-GB, ar with Western digits), so dates read as the console writes them (lib/i18n/format.ts).
    const t = createTranslator({ locale: INTL_TAG[locale] as Locale, messages, namespace: "problems", timeZone: config().CONSOLE_TIME_ZONE }) as unknown as Words;
    const labels = messages.fields as Record<string, string>;
    const separator = locale === "ar" ? "، " : ", ";
    // A list of fields (listOf) reads as their labels; any other text stays as it is.
    const fieldList = (value: string) => {
      const items = value.split(LIST);
      if (items.length === 1 && !isField(value)) return value;
      return items.map((f) => (isField(f) ? (labels[FIELD[f].key.slice("fields.".length)] ?? f) : f)).join(separator);
    };
    // `problems`: other problems (listOf), each put into words with the message (a view's refused fields).
    const problemList = (value: string): string => value.split(LIST).map(say).join(" ");
    const shown = (values?: ProblemValues) => {
      if (typeof values?.fields === "string") values = { ...values, fields: fieldList(values.fields) };
      if (typeof values?.problems === "string") values = { ...values, problems: problemList(values.problems) };
      return values;
    };
    const say = (text: string): string => problemWords(t, text, shown);
    made.set(messages, (words = say));
  }
  return words;
}

const made = new WeakMap<Messages, (text: string) => string>();
