import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/mobile";

// Mobile numbers are stored in E.164 (+447400123456), so that "the same mobile" is plain string
// equality (duplicate rule) and the list's contains filter matches digits. Parsing uses
// libphonenumber-js with its *mobile* metadata: a number is accepted only when it is a valid
// mobile (or fixed-line-or-mobile) number of its country. The browser (form validation) and the
// server (the authoritative check in createSubscriber) call this same function.

type MobileResult = { ok: true; e164: string } | { ok: false; message: string };

export const MOBILE_NEEDS_COUNTRY =
  "Start with + and the country code (e.g. +44 7400 123456), or choose the country first.";
export const MOBILE_INVALID = "This is not a valid mobile number.";

/** Characters a typed number may contain (digits and the usual separators). */
export const MOBILE_CHARACTERS = /^\+?[\d\s().\-/]+$/;

/**
 * Normalises a typed mobile number to E.164. `countryCode` (ISO 3166-1 alpha-2, the subscriber's
 * country) is the default for national numbers such as "07400 123456"; numbers written with
 * +/00 and a country code are read as such whatever the country.
 */
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
    return { ok: false, message: international ? MOBILE_INVALID : `${MOBILE_INVALID} Check it, or add + and the country code.` };
  }
  return { ok: true, e164: phone.number };
}
