import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";
import { LOCALES, type Locale } from "./locales";

/** The browser's best language among the console's, by `Accept-Language` and its weights; null when none fits. */
export function fromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const wanted = new Negotiator({ headers: { "accept-language": header } }).languages().filter((tag) => tag !== "*");
  if (wanted.length === 0) return null;
  try {
    const best = match(wanted, LOCALES, "none", { algorithm: "best fit" });
    return best === "none" ? null : (best as Locale);
  } catch {
    // A tag Intl cannot read (`Accept-Language: x_y!`) counts as no preference.
    return null;
  }
}
