import type { CSSProperties } from "react";
import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { ERROR_BOUNDARY_WORDS } from "@/lib/i18n/client-words";
import { KeepErrorWords } from "@/components/error-words";
import { ToastHost } from "@/components/toast";
import { direction } from "@/lib/i18n/locales";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("common");
  return { title: { default: t("appName"), template: `%s · ${t("appName")}` }, description: t("appDescription") };
}

// Sonner's own green and red text are too light for WCAG AA on their backgrounds: the same hues, darker.
const TOAST_COLOURS = { "--success-text": "#166534", "--error-text": "#991b1b" } as CSSProperties;

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const locale = await getLocale();
  const dir = direction(locale);
  return (
    <html lang={locale} dir={dir}>
      <body className="min-h-screen font-sans">
        <ClientMessages namespaces={ERROR_BOUNDARY_WORDS}>
          <KeepErrorWords />
          {children}
          <ToastHost position={dir === "rtl" ? "bottom-left" : "bottom-right"} dir={dir} richColors closeButton style={TOAST_COLOURS} />
        </ClientMessages>
      </body>
    </html>
  );
}
