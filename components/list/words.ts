import { createTranslator, useTranslations } from "next-intl";
import en from "@/messages/en.json";
import { problemWords } from "@/lib/i18n/problem";

// The list parts' words. A page always renders them inside next-intl's providers (server: the
// request's config; client: ClientMessages with `list`); a table rendered on its own, outside any
// provider (a unit test's renderToStaticMarkup), reads English rather than failing.

/** next-intl's "no provider" error: "Failed to call `useTranslations` because the context…" in development, no message in production. */
const noProvider = (error: unknown) =>
  error instanceof Error && (error.message === "" || error.message.startsWith("Failed to call `useTranslations` because the context") || error.message.startsWith("No intl context found"));

export function useListWords() {
  try {
    return useTranslations("list");
  } catch (error) {
    if (!noProvider(error)) throw error;
    return createTranslator({ locale: "en", messages: en, namespace: "list" });
  }
}

type Words = Parameters<typeof problemWords>[0];

function useProblems(): Words {
  try {
    return useTranslations("problems") as unknown as Words;
  } catch (error) {
    if (!noProvider(error)) throw error;
    return createTranslator({ locale: "en", messages: en, namespace: "problems" }) as unknown as Words;
  }
}

/** Puts a problem key (lib/i18n/problem.ts) into words, English outside any provider. */
export function useProblemText(): (text: string) => string {
  const t = useProblems();
  return (text) => problemWords(t, text);
}
