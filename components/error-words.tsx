"use client";

import { useLocale, useMessages } from "next-intl";
import { useEffect } from "react";
import type { Messages } from "@/lib/i18n/catalogues";
import type { Locale } from "@/lib/i18n/locales";

// app/global-error.tsx replaces the root layout, and so renders outside its catalogue provider:
// the root layout keeps the page's language and `errors` words here as it renders, for it. The
// whole catalogues never travel with every page for the rare page that fails this way.

export type ErrorWords = { locale: Locale; errors: Messages["errors"] };

let kept: ErrorWords | null = null;

/** The words the root layout last rendered with; null when it never rendered in this browser. */
export const keptErrorWords = (): ErrorWords | null => kept;

/** Rendered by the root layout inside its provider: keeps the page's words for app/global-error.tsx. */
export function KeepErrorWords() {
  const locale = useLocale();
  const errors = (useMessages() as Partial<Messages>).errors;
  useEffect(() => {
    if (errors) kept = { locale, errors };
  }, [locale, errors]);
  return null;
}
