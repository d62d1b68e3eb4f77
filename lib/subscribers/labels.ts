import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "./filters";

// How statuses and flags read in the console (the values themselves are docs/API.md's).

export const STATUS_LABEL: Record<SubscriptionStatus, string> = {
  pending: "Pending",
  active: "Active",
  expired: "Expired",
  cancelled: "Cancelled",
};

export const STATUS_OPTIONS = SUBSCRIPTION_STATUSES.map((value) => ({ value, label: STATUS_LABEL[value] }));

export const YES_NO_OPTIONS = [
  { value: "true", label: "Yes" },
  { value: "false", label: "No" },
];

/** Each status's badge colour (a colour is never the only signal: the label says it too). */
export const STATUS_TONE = { pending: "blue", active: "green", expired: "slate", cancelled: "red" } as const satisfies Record<SubscriptionStatus, string>;
