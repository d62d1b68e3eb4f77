import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { currentUser } from "@/lib/auth/session";
import { config } from "@/lib/config";
import { catalogue } from "./catalogues";
import { isLocale, type Locale } from "./locales";
import { fromAcceptLanguage } from "./negotiate";

/** The request's language: the user's choice on /account, else the browser's, else DEFAULT_LOCALE (docs/decisions/0048-languages.md). */
export const requestLocale = cache(async (): Promise<Locale> => {
  const chosen = (await currentUser())?.locale;
  if (isLocale(chosen)) return chosen;
  return fromAcceptLanguage((await headers()).get("accept-language")) ?? config().DEFAULT_LOCALE;
});

// next-intl reads this for every getTranslations, and the root layout's client provider (next.config.js names it).
export default getRequestConfig(async () => {
  const locale = await requestLocale();
  return { locale, messages: catalogue(locale), timeZone: config().CONSOLE_TIME_ZONE };
});
