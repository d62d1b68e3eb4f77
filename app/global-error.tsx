"use client";

import { NextIntlClientProvider, useTranslations } from "next-intl";
import { useDatabaseOutage } from "@/lib/health/use-outage";
import { direction, isLocale, type Locale } from "@/lib/i18n/locales";
import { errors as ar } from "@/messages/ar.json";
import { errors as en } from "@/messages/en.json";
import { errors as fr } from "@/messages/fr.json";

// Replaces the root layout when it fails, so outside its providers: the language is the one the
// page was shown in (its <html lang>, read when this module loaded, before this replaced it), and
// the words are the `errors` group of the catalogues, brought with this module.
const WORDS: Record<Locale, typeof en> = { en, fr, ar };
const pageLocale: Locale = (() => {
  const lang = typeof document === "undefined" ? undefined : document.documentElement.lang;
  return isLocale(lang) ? lang : "en";
})();

export default function GlobalError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <html lang={pageLocale} dir={direction(pageLocale)}>
      <body style={{ fontFamily: "system-ui, sans-serif", padding: "4rem", textAlign: "center" }}>
        <NextIntlClientProvider locale={pageLocale} messages={{ errors: WORDS[pageLocale] }}>
          <Message error={error} retry={retry} />
        </NextIntlClientProvider>
      </body>
    </html>
  );
}

function Message({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  const outage = useDatabaseOutage(retry);
  const t = useTranslations("errors");
  return outage === "database-down" ? (
    <>
      <h1>{t("databaseDown")}</h1>
      <p role="status">{t("databaseDownShort")}</p>
    </>
  ) : (
    <>
      <h1>{t("title")}</h1>
      <p>{t("reference", { reference: error.digest ?? t("referenceNone") })}</p>
      <button type="button" onClick={retry}>
        {t("tryAgain")}
      </button>
    </>
  );
}
