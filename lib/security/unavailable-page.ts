import { createTranslator } from "use-intl/core";
import { RETRY_AFTER_SECONDS } from "@/lib/health/unavailable";
import { catalogue } from "@/lib/i18n/catalogues";
import { direction, type Locale } from "@/lib/i18n/locales";
import { fromAcceptLanguage } from "@/lib/i18n/negotiate";
import { problemsIn } from "@/lib/i18n/problems-in";

// The proxy's own 503 and 429 pages: self-contained, as nothing else can be fetched; the 503
// reloads itself, so the console comes back when the database does. In the browser's language
// (its Accept-Language; the proxy reads no session), else English.

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const wordsFor = (acceptLanguage: string | null | undefined) => {
  const locale = fromAcceptLanguage(acceptLanguage) ?? "en";
  const messages = catalogue(locale);
  return { locale, messages, t: createTranslator({ locale, messages }), appName: messages.common.appName };
};

/** `acceptLanguage`: the request's Accept-Language header. */
export function unavailablePage(nonce: string, acceptLanguage?: string | null): string {
  const { locale, t, appName } = wordsFor(acceptLanguage);
  return notice(nonce, locale, {
    status: 503,
    title: `${t("errors.serviceUnavailable")} · ${appName}`,
    heading: t("errors.databaseDown"),
    message: t("errors.serviceUnavailableText", { seconds: RETRY_AFTER_SECONDS }),
    refresh: true,
  });
}

/** The 429 page: the user's lists (or imports) already take every place they have. `message`: a problem key (or words), said in the page's language. */
export function tooManyRequestsPage(nonce: string, message: string, acceptLanguage?: string | null): string {
  const { locale, messages, t, appName } = wordsFor(acceptLanguage);
  const words = problemsIn(locale, messages)(message);
  return notice(nonce, locale, { status: 429, title: `${t("errors.tooManyRequests")} · ${appName}`, heading: t("errors.tooManyLists"), message: words, refresh: false });
}

type Notice = { status: number; title: string; heading: string; message: string; refresh: boolean };

function notice(nonce: string, locale: Locale, { status, title, heading, message, refresh }: Notice): string {
  return `<!DOCTYPE html>
<html lang="${locale}" dir="${direction(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${refresh ? `<meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">\n` : ""}<title>${escape(title)}</title>
<style nonce="${escape(nonce)}">
  body { margin: 0; font-family: ui-sans-serif, system-ui, sans-serif; color: #0f172a; background: #f8fafc; }
  main { max-width: 32rem; margin: 0 auto; min-height: 60vh; padding: 4rem 1.5rem; display: flex; flex-direction: column; justify-content: center; text-align: center; }
  .code { font-size: .875rem; font-weight: 600; letter-spacing: .025em; color: #4f46e5; margin: 0; }
  h1 { font-size: 1.5rem; font-weight: 600; margin: .5rem 0 0; }
  p { color: #475569; line-height: 1.5; }
</style>
</head>
<body>
<main>
  <p class="code">${status}</p>
  <h1>${escape(heading)}</h1>
  <p role="status">${escape(message)}</p>
</main>
</body>
</html>
`;
}
