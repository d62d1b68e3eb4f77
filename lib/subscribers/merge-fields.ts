import { formatDay } from "@/lib/date-time-format";
import type { MergeField } from "./duplicate-schema";
import { STATUS_LABEL } from "./labels";
import type { SubscriberDetail } from "./record";

// A merge field's value as the duplicates review compares and shows it (null: empty).

type Values = Pick<SubscriberDetail, "first_name" | "last_name" | "email" | "mobile" | "branch_name" | "country_name" | "travel_date" | "sheet_name" | "subscription_status" | "is_mandatory">;

export function fieldText(s: Values, field: MergeField): string | null {
  switch (field) {
    case "travel_date":
      return s.travel_date ? formatDay(s.travel_date) : null;
    case "sheet":
      return s.sheet_name;
    case "subscription_status":
      return STATUS_LABEL[s.subscription_status];
    case "is_mandatory":
      return s.is_mandatory ? "Yes" : "No";
    default:
      return s[field] || null;
  }
}
