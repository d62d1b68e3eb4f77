import { createTranslator } from "next-intl";
import type { Page } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { AUDIT_ACTIONS } from "../lib/audit/actions";

// The catalogues, read by the specs that run the console in French, Arabic and the pseudo-language:
// a locator names what the English page says, and `words(locale).L()` gives what the same
// message says in that language, so one journey runs in every language.

export type Lang = "en" | "fr" | "ar";
const read = (lang: Lang) => JSON.parse(fs.readFileSync(path.join(process.cwd(), "messages", `${lang}.json`), "utf8")) as Record<string, unknown>;
const CATALOGUES = { en: read("en"), fr: read("fr"), ar: read("ar") };
const en = CATALOGUES.en;
/** What Playwright's `locale` makes the browser send as Accept-Language. */
export const BROWSER_LOCALE: Record<Lang, string> = { en: "en-GB", fr: "fr-FR", ar: "ar-EG" };

function flatten(tree: object, prefix = "", out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "string") out.set(key, v);
    else flatten(v as object, key, out);
  }
  return out;
}

const english = flatten(en);
/** English message → its keys (one text may have several). */
const byEnglish = new Map<string, string[]>();
for (const [key, text] of english) byEnglish.set(text, [...(byEnglish.get(text) ?? []), key]);

const inEnglish = createTranslator({ locale: "en", messages: en as never, onError: () => undefined });

export function words(locale: Lang) {
  const messages = flatten(CATALOGUES[locale]);
  const t = createTranslator({ locale, messages: CATALOGUES[locale] as never });
  return {
    /** A message by its key, with its values. */
    t: (key: string, values?: Record<string, string | number>) => (t as unknown as (k: string, v?: object) => string)(key, values),
    /**
     * What the page says in this language where the English page says `text`: a message without
     * placeholders, or, given the `values`, the message that English writes as `text` with them.
     */
    L(text: string, values?: Record<string, string | number>): string {
      if (!values) {
        const keys = byEnglish.get(text);
        if (!keys) throw new Error(`No English message reads ${JSON.stringify(text)}`);
        return messages.get(keys[0]!)!;
      }
      for (const [key, message] of english) {
        if (!message.includes("{")) continue;
        let written: string;
        try {
          written = (inEnglish as unknown as (k: string, v?: object) => string)(key, values);
        } catch {
          continue;
        }
        if (written === text) return (t as unknown as (k: string, v?: object) => string)(key, values);
      }
      throw new Error(`No English message writes ${JSON.stringify(text)} with ${JSON.stringify(values)}`);
    },
  };
}

/** English messages whose translation into `locale` differs: none of them may show on that language's pages. */
export function englishOnly(locale: Exclude<Lang, "en">): string[] {
  const theirs = flatten(CATALOGUES[locale]);
  return [...english]
    .filter(([key, text]) => !/[{<]/.test(text) && /[a-z]{3}/i.test(text) && theirs.get(key) !== text)
    .map(([, text]) => text);
}

/** The page's visible text, one entry per text node, and the accessible names it carries in attributes; data (in <bdi>, <code>, <kbd>, or marked translate="no") left out. */
export async function pageTexts(page: Page, { attributes = true } = {}): Promise<string[]> {
  return page.evaluate((attributes) => {
    const out: string[] = [document.title];
    const skip = (el: Element | null) => Boolean(el?.closest("script, style, noscript, template, bdi, code, kbd, samp, [translate='no']"));
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const text = node.textContent?.trim();
      if (!text || !el || skip(el)) continue;
      if (!el.checkVisibility({ visibilityProperty: true }) && !el.closest(".sr-only")) continue;
      out.push(text);
    }
    if (!attributes) return out;
    for (const el of document.body.querySelectorAll("[aria-label], [placeholder], [title], [alt]")) {
      if (skip(el)) continue;
      for (const attr of ["aria-label", "placeholder", "title", "alt"]) {
        const value = el.getAttribute(attr)?.trim();
        if (value) out.push(value);
      }
    }
    return out;
  }, attributes);
}

/** Text that is data or a number, not words: counts, dates and times as Intl writes them, emails, ids. */
const DATES = /\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec) \d{4}(, \d{2}:\d{2}(:\d{2})?)?|\b(\d+ \w+ ago|in \d+ \w+|yesterday|tomorrow|today|now)\b|\b\d{1,2}(–| – )\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec) \d{4}/g;

/**
 * A plain (unaccented) word of three letters or more in a pseudo-language text: the catalogue
 * accents every letter of its messages, so such a word inside one was put in by code (an English
 * label, a field's name). Dates, emails, addresses, file names, codes in capitals and `data` (the page's
 * records) are left out. Read in text nodes only: an attribute (an aria-label) cannot isolate a name it carries.
 */
export function plainWord(text: string, data: readonly string[]): string | null {
  let rest = text.replace(DATES, " ").replace(/\S+@\S+|https?:\/\/\S+|\S+\.(csv|xlsx)\b/g, " ");
  for (const value of data) if (value.length > 2) rest = rest.split(value).join(" ");
  // Capitals only (UTC, a format's name) are codes, not words.
  return /(?<![\p{L}\p{M}])(?![A-Z]+(?![\p{L}\p{M}]))[A-Za-z]{3,}(?![\p{L}\p{M}])/u.exec(rest)?.[0] ?? null;
}

export function isNeutral(given: string): boolean {
  // Dates, times and relative times are Intl's words, in the page's language: not a catalogue's.
  const text = given.replace(DATES, "");
  return (
    // Digits, punctuation and the arrows and marks of buttons (▾ ✕ ← →) are no language's.
    /^[\s\d.,:;/–—\-+()%#×·…|'’"“”«»!?*@=<>[\]_~^&$€£\u2190-\u21ff\u2700-\u27bf\u25a0-\u25ff]*$/.test(text) ||
    // A machine name (an audit action's code, a webhook message's id): never a sentence.
    AUDIT_ACTIONS.some((action) => action === text) ||
    /^[\w.-]*_[\w.-]*$/.test(text) ||
    /^\S+@\S+$/.test(text) ||
    /^(https?:\/\/|\/)\S*$/.test(text)
  );
}
