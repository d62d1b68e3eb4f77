import type { ReactNode } from "react";
import { NextIntlClientProvider } from "next-intl";
import { catalogue } from "@/lib/i18n/catalogues";

/** `children` as an English page renders them: client parts read their words from the provider, as in the browser. */
export function InEnglish({ children }: { children: ReactNode }) {
  return (
    <NextIntlClientProvider locale="en" timeZone="UTC" messages={catalogue("en")}>
      {children}
    </NextIntlClientProvider>
  );
}
