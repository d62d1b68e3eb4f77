import "server-only";
import { config } from "@/lib/config";
import { formatsFor, type Formats } from "./format";
import { problemsIn } from "./problems-in";
import { requestLocale, requestMessages } from "./request";

/** The request's formats (lib/i18n/format.ts): its language, the console's zone. */
export async function getFormats(): Promise<Formats> {
  return formatsFor(await requestLocale(), config().CONSOLE_TIME_ZONE);
}

/** Problem keys (lib/i18n/problem.ts) put into the request's words: its language, or the pseudo-language. */
export async function getProblemWords(): Promise<(text: string) => string> {
  const [locale, messages] = await Promise.all([requestLocale(), requestMessages()]);
  return problemsIn(locale, messages);
}
