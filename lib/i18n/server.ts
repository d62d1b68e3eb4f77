import "server-only";
import { config } from "@/lib/config";
import { formatsFor, type Formats } from "./format";
import { requestLocale } from "./request";

/** The request's formats (lib/i18n/format.ts): its language, the console's zone. */
export async function getFormats(): Promise<Formats> {
  return formatsFor(await requestLocale(), config().CONSOLE_TIME_ZONE);
}
