"use client";

import { NextIntlClientProvider, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { keptErrorWords, type ErrorWords } from "@/components/error-words";
import { useDatabaseOutage } from "@/lib/health/use-outage";
import { direction, isLocale } from "@/lib/i18n/locales";

// Replaces the root layout when it fails, so outside its providers: the words are those the root
// layout kept (components/error-words.tsx), in the page's language. When the root layout never
// rendered here (it failed on the server), the language of the browser's page and its catalogue,
// loaded now: a failure this rare should not bring every catalogue to every page.

async function loadWords(): Promise<ErrorWords> {
  const lang = document.documentElement.lang;
  const locale = isLocale(lang) ? lang : "en";
  const messages = locale === "ar" ? await import("@/messages/ar.json") : locale === "fr" ? await import("@/messages/fr.json") : await import("@/messages/en.json");
  return { locale, errors: messages.default.errors };
}

export default function GlobalError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  const [words, setWords] = useState<ErrorWords | null>(keptErrorWords);
  useEffect(() => {
    if (!words) void loadWords().then(setWords);
  }, [words]);
  const locale = words?.locale ?? "en";
  return (
    <html lang={locale} dir={direction(locale)}>
      <body style={{ fontFamily: "system-ui, sans-serif", padding: "4rem", textAlign: "center" }}>
        {words ? (
          <NextIntlClientProvider locale={words.locale} messages={{ errors: words.errors }}>
            <Message error={error} retry={retry} />
          </NextIntlClientProvider>
        ) : null}
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
