// SPEC.md's subscriber fields, in its order and with its names: the list's columns and sort keys,
// the API's record and the export's header. A module of its own, without imports, so that the
// export's worker threads load it without the rest of the filters.
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
] as const;
