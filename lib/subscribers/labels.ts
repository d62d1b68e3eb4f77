import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "./filters";

// How statuses and flags read in the console (the values themselves are docs/API.md's): the
// catalogue's words (statusKey, statusOptions).

/** Each status's badge colour (a colour is never the only signal: the label says it too). */
export const STATUS_TONE = { pending: "blue", active: "green", expired: "slate", cancelled: "red" } as const satisfies Record<SubscriptionStatus, string>;

/** The catalogue key of a status's label (the `subscribers.status` group). */
export const statusKey = (status: SubscriptionStatus) => `subscribers.status.${status}` as const;
export type StatusKey = ReturnType<typeof statusKey>;
/** The catalogue keys of Yes and No. */
export type YesNoKey = "subscribers.yes" | "subscribers.no";

type Words = (key: StatusKey | YesNoKey) => string;

/** The status choices in the reader's language, with a translator of the whole catalogue. */
export const statusOptions = (t: Words) => SUBSCRIPTION_STATUSES.map((value) => ({ value, label: t(statusKey(value)) }));

/** Yes and No as a filter's choices, in the reader's language. */
export const yesNoOptions = (t: Words) => [
  { value: "true", label: t("subscribers.yes") },
  { value: "false", label: t("subscribers.no") },
];
