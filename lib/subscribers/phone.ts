import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/mobile";
import { problem } from "@/lib/i18n/problem";

// Mobiles are stored in E.164, so "the same mobile" is string equality and filters match digits.
// Only numbers valid as mobiles of their country pass; the browser and the server run this same function.

type MobileResult = { ok: true; e164: string } | { ok: false; message: string };

// Problem keys (lib/i18n/problem.ts): put into words where they are shown.
export const MOBILE_NEEDS_COUNTRY = problem("subscribers.mobileNeedsCountry");
export const MOBILE_INVALID = problem("subscribers.mobileInvalid");
const MOBILE_INVALID_NATIONAL = problem("subscribers.mobileInvalidNational");

/** Characters a typed number may contain (digits and the usual separators). */
export const MOBILE_CHARACTERS = /^\+?[\d\s().\-/]+$/;

/** A typed mobile in E.164; `countryCode` (ISO alpha-2) reads national numbers, an explicit +/00 prefix wins. */
export function normaliseMobile(input: string, countryCode?: string | null): MobileResult {
  const text = input.trim();
  if (!text || !MOBILE_CHARACTERS.test(text)) return { ok: false, message: MOBILE_INVALID };
  const international = /^(\+|00)/.test(text);
  const defaultCountry = countryCode && /^[A-Z]{2}$/.test(countryCode) ? (countryCode as CountryCode) : undefined;
  if (!international && !defaultCountry) return { ok: false, message: MOBILE_NEEDS_COUNTRY };
  const phone = parsePhoneNumberFromString(
    text.replace(/^00/, "+"),
    defaultCountry ? { defaultCountry } : undefined,
  );
  if (!phone || !phone.isValid()) {
    return { ok: false, message: international ? MOBILE_INVALID : MOBILE_INVALID_NATIONAL };
  }
  return { ok: true, e164: phone.number };
}
