import { useTranslations } from "next-intl";
import { problemWords } from "@/lib/i18n/problem";

// The list parts' words: a page renders them inside next-intl's providers (server: the request's
// config; client: ClientMessages with `list`). Tests render them inside an English provider
// (tests/helpers/english.tsx): no catalogue is bundled here, so none reaches the browser.

export const useListWords = () => useTranslations("list");

/** Puts a problem key (lib/i18n/problem.ts) into words, with the page's `problems` groups. */
export function useProblemText(): (text: string) => string {
  const t = useTranslations("problems") as unknown as Parameters<typeof problemWords>[0];
  return (text) => problemWords(t, text);
}
