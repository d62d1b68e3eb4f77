import { NextIntlClientProvider } from "next-intl";
import { getLocale } from "next-intl/server";
import { pickMessages, type MessageGroup } from "@/lib/i18n/catalogues";

/**
 * Hands the client components below it the catalogue namespaces they read, and only those: the rest
 * of the catalogue never travels to the browser (docs/decisions/0048-languages.md). The root layout
 * gives every page `common`, `ui` and `problems.common`; a page wraps its client parts with the namespaces they add.
 */
export async function ClientMessages({ namespaces, children }: { namespaces: readonly MessageGroup[]; children: React.ReactNode }) {
  const locale = await getLocale();
  return <NextIntlClientProvider messages={pickMessages(locale, ["common", "ui", "problems.common", ...namespaces])}>{children}</NextIntlClientProvider>;
}
