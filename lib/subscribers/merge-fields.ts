import type { MergeField } from "./duplicate-schema";
import { FIELD, type FieldName } from "./fields";
import type { SubscriptionStatus } from "./filters";
import type { SubscriberDetail } from "./record";

// A merge field's value as the duplicates review compares and shows it (null: empty), in the
// reader's words: the page hands its translations in (docs/decisions/0048-languages.md).

type Values = Pick<SubscriberDetail, "first_name" | "last_name" | "email" | "mobile" | "branch_name" | "country_name" | "travel_date" | "sheet_name" | "subscription_status" | "is_mandatory">;

/** How a page says a day, a status, a flag and a stored (English) country name (lib/i18n/format.ts, lib/countries/names.ts). */
export type ValueWords = {
  day: (value: Date | string) => string;
  status: (status: SubscriptionStatus) => string;
  flag: (value: boolean) => string;
  country: (name: string) => string;
};

export function fieldText(s: Values, field: MergeField, words: ValueWords): string | null {
  switch (field) {
    case "travel_date":
      return s.travel_date ? words.day(s.travel_date) : null;
    case "sheet":
      return s.sheet_name;
    case "subscription_status":
      return words.status(s.subscription_status);
    case "is_mandatory":
      return words.flag(s.is_mandatory);
    case "country_name":
      return s.country_name ? words.country(s.country_name) : null;
    default:
      return s[field] || null;
  }
}

/** A translator of the `fields` catalogue namespace (`fields.first_name`…). */
export type FieldWords = { has: (key: string) => boolean; (key: string): string };

/** A field's label through a translator of the `fields` namespace (the field catalogue's key, lib/subscribers/fields.ts). */
export const labelOf = (t: FieldWords, field: FieldName): string => t(FIELD[field].key.slice("fields.".length));
