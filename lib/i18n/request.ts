import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { currentUser } from "@/lib/auth/guards";
import { config } from "@/lib/config";
import { catalogue, type Messages } from "./catalogues";
import { isLocale, type Locale } from "./locales";
import { fromAcceptLanguage } from "./negotiate";
import { pseudoCatalogue } from "./pseudo";

/** The request's language: the user's choice on /account, else the browser's, else DEFAULT_LOCALE (docs/decisions/0048-languages.md). */
export const requestLocale = cache(async (): Promise<Locale> => {
  // Outside a request (a script, a job, a test calling an action) there is no one to ask.
  const accepted = await acceptLanguage();
  if (accepted === undefined) return config().DEFAULT_LOCALE;
  const chosen = (await currentUser())?.locale;
  if (isLocale(chosen)) return chosen;
  if (await requestPseudo()) return "en";
  return fromAcceptLanguage(accepted) ?? config().DEFAULT_LOCALE;
});

/** The request's Accept-Language (null: none sent); undefined outside a request. */
async function acceptLanguage(): Promise<string | null | undefined> {
  try {
    return (await headers()).get("accept-language");
  } catch {
    return undefined;
  }
}

/** PSEUDO_LOCALE=on: a browser asking for `en-XA` (the pseudo-locale's tag) first reads English as lib/i18n/pseudo.ts makes it. */
const requestPseudo = cache(async (): Promise<boolean> => {
  if (!config().PSEUDO_LOCALE || isLocale((await currentUser())?.locale)) return false;
  return /^\s*en-XA\b/i.test((await acceptLanguage()) ?? "");
});

let pseudo: Messages | null = null;

/** The request's catalogue: its language's, or the pseudo-language's. */
export const requestMessages = cache(async (): Promise<Messages> =>
  (await requestPseudo()) ? (pseudo ??= pseudoCatalogue(catalogue("en"))) : catalogue(await requestLocale()),
);

// next-intl reads this for every getTranslations, and the root layout's client provider (next.config.js names it).
export default getRequestConfig(async () => {
  const locale = await requestLocale();
  return { locale, messages: await requestMessages(), timeZone: config().CONSOLE_TIME_ZONE };
});
