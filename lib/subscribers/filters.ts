import { z } from "zod";
import type { FieldName } from "./fields";
import {
  booleanParam,
  checkRange,
  columnsParam,
  dateParam,
  idParam,
  optionParam,
  pageParam,
  sortParam,
  textParam,
  viewMarkerParam,
} from "@/lib/list/params";

// The one parser of subscriber list queries, for the page, the API and the export.

export const SUBSCRIPTION_STATUSES = ["pending", "active", "expired", "cancelled"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** docs/SPEC.md's subscriber fields, in its order and with its names (list columns, export header). */
export const SUBSCRIBER_FIELDS = [
  "id",
  "first_name",
  "last_name",
  "branch_name",
  "country_name",
  "email",
  "mobile",
  "travel_date",
  "sheet",
  "subscription_status",
  "is_duplicate",
  "is_mandatory",
  "created_at",
] as const satisfies readonly FieldName[];

/** Every field is sortable. */
export const SUBSCRIBER_SORT_COLUMNS = SUBSCRIBER_FIELDS;

const filterShape = {
  /** The toolbar's search: every word in the first or last name, the email or the mobile. */
  q: textParam,
  id: idParam,
  first_name: textParam,
  last_name: textParam,
  branch_name: textParam,
  country_name: textParam,
  email: textParam,
  mobile: textParam,
  sheet: textParam,
  subscription_status: optionParam(SUBSCRIPTION_STATUSES, "subscription_status"),
  is_duplicate: booleanParam("is_duplicate"),
  is_mandatory: booleanParam("is_mandatory"),
  travel_date_from: dateParam,
  travel_date_to: dateParam,
  created_from: dateParam,
  created_to: dateParam,
};

/** Filter keys, page and sort excluded, from the schema ("Clear filters", the export's captured filters). */
export const SUBSCRIBER_FILTER_KEYS = Object.keys(filterShape) as (keyof typeof filterShape)[];

/**
 * The list's address without its page: its filters, sort, shown columns and `view`. A page that
 * leads back to the list (the bulk change's confirmation) keeps them, so a saved view's address
 * comes back whole (docs/decisions/0027-saved-views.md).
 */
export const SUBSCRIBER_ADDRESS_KEYS = [...SUBSCRIBER_FILTER_KEYS, "sort", "columns", "view"] as const;

function ranges(value: Record<string, unknown>, ctx: z.RefinementCtx) {
  checkRange(value, ctx, "travel_date_from", "travel_date_to");
  checkRange(value, ctx, "created_from", "created_to");
}

export const subscriberFiltersSchema = z
  .object({
    page: pageParam,
    sort: sortParam(SUBSCRIBER_SORT_COLUMNS, "-created_at"),
    view: viewMarkerParam,
    columns: columnsParam(SUBSCRIBER_FIELDS),
    ...filterShape,
  })
  .superRefine(ranges);

/** Only the filters (no page, no sort): what an export request captures. */
export const subscriberFilterOnlySchema = z.object(filterShape).superRefine(ranges);

export type SubscriberFilters = z.output<typeof subscriberFiltersSchema>;
export type SubscriberFilterValues = z.output<typeof subscriberFilterOnlySchema>;
