// What a list's rows are called in its summary ("Showing 1–10 of 245 branches"): a key of the
// catalogue's list.nouns, each counted with the language's plural forms.

export const LIST_NOUNS = ["subscribers", "branches", "users", "views", "changes", "events", "groups", "deliveries", "endpoints"] as const;
export type ListNoun = (typeof LIST_NOUNS)[number];
