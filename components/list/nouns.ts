// What a list's rows are called in its summary ("Showing 1–10 of 245 branches"): a key of the
// catalogue's list.nouns, each counted with the language's plural forms.

export const LIST_NOUNS = ["subscribers", "branches", "users", "views", "changes", "events", "groups", "deliveries"] as const;
export type ListNoun = (typeof LIST_NOUNS)[number];

/** The noun's key: given as one, or as the English [singular, plural] pair the lists used to pass; null for another noun. */
export function nounOf(noun: ListNoun | readonly [string, string]): ListNoun | null {
  const key = typeof noun === "string" ? noun : noun[1];
  return (LIST_NOUNS as readonly string[]).includes(key) ? (key as ListNoun) : null;
}
