import type en from "@/messages/en.json";
import type { Locale } from "./locales";

// Type-checked keys: a t("…") naming no key of the English catalogue fails the type check.
declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof en;
  }
}
