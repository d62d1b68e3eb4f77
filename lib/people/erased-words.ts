import { ERASED, erasedViewName } from "./markers";

// What an erasure left in stored values (the `[erased]` marker, a view renamed `Erased view 12`)
// as the reader's language says it. The stored values stay English: the API and scripts read them.

/** A translator of the whole catalogue (next-intl's, or the audit's words). */
type Say = (key: "common.erased" | "views.erasedName", values?: { id: string }) => string;

/** A stored string as shown: the erasure's marker in words, anything else as it is. */
export const shownErased = (value: string, t: Say): string => (value === ERASED ? t("common.erased") : value);

/**
 * A saved view's name as shown. Only the name the erasure gives this very view (its own id) is
 * read as the erasure's: a name someone typed stays theirs.
 */
export const shownViewName = (view: { id: number | string; name: string }, t: Say): string =>
  view.name === erasedViewName(view.id) ? t("views.erasedName", { id: String(view.id) }) : shownErased(view.name, t);
