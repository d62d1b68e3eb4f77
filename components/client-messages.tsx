import { NextIntlClientProvider } from "next-intl";
import { pickMessages, type MessageGroup } from "@/lib/i18n/catalogues";
import { config } from "@/lib/config";
import { requestLocale, requestMessages } from "@/lib/i18n/request";

/**
 * Hands the client components below it the catalogue namespaces they read, and only those: the rest
 * of the catalogue never travels to the browser (docs/decisions/0048-languages.md). The root layout
 * gives every page `common`, `ui` and `problems.common`; a page wraps its client parts with the namespaces they add.
 */
export async function ClientMessages({ namespaces, children }: { namespaces: readonly MessageGroup[]; children: React.ReactNode }) {
  const messages = pickMessages(await requestMessages(), ["common", "ui", "problems.common", ...namespaces]);
  return (
    <NextIntlClientProvider locale={await requestLocale()} timeZone={config().CONSOLE_TIME_ZONE} messages={messages}>
      {children}
    </NextIntlClientProvider>
  );
}
