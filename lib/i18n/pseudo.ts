import { TYPE, parse, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { printAST } from "@formatjs/icu-messageformat-parser/printer.js";

// The pseudo-language (PSEUDO_LOCALE=on, for translators and tests): English with every letter
// accented, a third longer, between ⟦ ⟧. Text on a page without these marks did not come from a
// catalogue; layouts that break on longer words show it (docs/languages.md).

const PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const ACCENTED = "àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ";
const accented = (text: string) => text.replace(/[a-zA-Z]/g, (c) => ACCENTED[PLAIN.indexOf(c)] ?? c);

function transform(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((e) => {
    if (e.type === TYPE.literal) return { ...e, value: accented(e.value) };
    if (e.type === TYPE.plural || e.type === TYPE.select) {
      return { ...e, options: Object.fromEntries(Object.entries(e.options).map(([k, o]) => [k, { ...o, value: transform(o.value) }])) };
    }
    if (e.type === TYPE.tag) return { ...e, children: transform(e.children) };
    return e;
  });
}

/** One message in the pseudo-language. */
export function pseudoMessage(message: string): string {
  const body = printAST(transform(parse(message)));
  const padding = "·".repeat(Math.ceil(message.length / 3));
  return `⟦${body}${padding}⟧`;
}

/** A whole catalogue in the pseudo-language, same keys. */
export function pseudoCatalogue<T>(tree: T): T {
  if (typeof tree === "string") return pseudoMessage(tree) as T;
  return Object.fromEntries(Object.entries(tree as Record<string, unknown>).map(([k, v]) => [k, pseudoCatalogue(v)])) as T;
}
