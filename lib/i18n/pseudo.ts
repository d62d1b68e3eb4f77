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

// A catalogue the build compiled (next.config.js, docs/decisions/0050-precompiled-messages.md) holds
// icu-minify's arrays for the messages with arguments; one read from its file (tests, scripts) holds strings.
type Compiled = string | number | Compiled[] | { [branch: string]: Compiled };

/** One compiled message node in the pseudo-language: literals accented; names, styles and branch keys kept. */
function pseudoNode(node: Compiled): Compiled {
  if (typeof node === "string") return accented(node);
  if (!Array.isArray(node) || node.length === 1) return node; // `#`, or an argument
  const [name, kind, ...rest] = node;
  if (typeof kind !== "number") return [name!, ...[kind!, ...rest].map(pseudoNode)]; // a tag and its children
  if (kind > 3) return node; // a number, date or time
  const branches = rest[0] as Record<string, Compiled>; // select, plural or selectordinal
  return [name!, kind, Object.fromEntries(Object.entries(branches).map(([k, v]) => [k, Array.isArray(v) ? v.map(pseudoNode) : pseudoNode(v)]))];
}

/** One compiled message in the pseudo-language. */
export function pseudoCompiled(message: Compiled[]): Compiled[] {
  const padding = "·".repeat(Math.ceil(JSON.stringify(message).length / 3));
  return ["⟦", ...message.map(pseudoNode), `${padding}⟧`];
}

const compiledIn = (tree: unknown): boolean =>
  Array.isArray(tree) || (typeof tree === "object" && tree !== null && Object.values(tree).some(compiledIn));

/** A whole catalogue in the pseudo-language, same keys. */
export function pseudoCatalogue<T>(tree: T): T {
  const compiled = compiledIn(tree);
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return compiled ? `⟦${accented(node)}${"·".repeat(Math.ceil(node.length / 3))}⟧` : pseudoMessage(node);
    if (Array.isArray(node)) return pseudoCompiled(node as Compiled[]);
    return Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([k, v]) => [k, walk(v)]));
  };
  return walk(tree) as T;
}
