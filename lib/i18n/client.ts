"use client";
import { useMemo } from "react";
import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { formatsFor, type Formats } from "./format";
import { problemWords } from "./problem";

/** The formats of lib/i18n/format.ts in a client component: the page's language and the console's zone. */
export function useFormats(): Formats {
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  return useMemo(() => formatsFor(locale, timeZone), [locale, timeZone]);
}

/** Puts problem keys (lib/i18n/problem.ts) into words: a form's own zod messages, checked in the browser. */
export function useProblemWords(): (text: string) => string {
  const t = useTranslations("problems") as unknown as Parameters<typeof problemWords>[0];
  return (text) => problemWords(t, text);
}
