import "server-only";
import { ROOT_COLLATION, SORT_COLLATION, type SortCollation } from "./collation";

/**
 * The collation a list's names sort in, decided once for pages and the API (docs/sorting-by-language.md):
 * an API request sorts in the language of its answer's words (its Accept-Language, else English: the
 * root order, whether the caller is a token or a session); a page in its reader's language (the user's
 * choice, else the browser's, else DEFAULT_LOCALE: lib/i18n/request.ts). Outside any request (a script,
 * a test calling the list directly), the root order.
 */
export async function listCollation(): Promise<SortCollation> {
  // Imported when asked: the list statements' modules also serve scripts (the bench), which load no Next or next-intl.
  const { apiAnswerLocale } = await import("@/lib/http/api");
  const api = apiAnswerLocale();
  if (api) return SORT_COLLATION[api];
  const { requestLocale } = await import("@/lib/i18n/request");
  try {
    return SORT_COLLATION[await requestLocale()];
  } catch (error) {
    // next/headers outside a request: no reader, no language. Anything else is a real failure.
    if (error instanceof Error && /outside a request scope/.test(error.message)) return ROOT_COLLATION;
    throw error;
  }
}
