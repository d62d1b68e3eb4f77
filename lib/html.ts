// Markup written as text, for the one place where rendering it through React costs more than it
// is worth: the rows of the subscriber list (app/(console)/subscribers/subscriber-table.tsx says
// why). Safe by construction: every value put into an `html` template is escaped, unless it is
// itself `html`; templates quote every attribute, so an escaped value cannot leave its attribute
// or its element. Nothing else in the console writes markup as text.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `value` as text inside an element or a quoted attribute: `& < > " '` become entities. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/** Markup made by `html` (or escaped from text): put into another template as it is. */
export class Html {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/** What a template may hold: markup, text and numbers (escaped), nothing (null, undefined, false), or a list of these. */
export type HtmlPart = Html | string | number | null | undefined | false | readonly HtmlPart[];

function part(value: HtmlPart): string {
  if (value instanceof Html) return value.text;
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(part).join("");
  return escapeHtml(String(value));
}

/** A template of markup: html`<bdi title="${name}">${name}</bdi>` escapes `name` both times. */
export function html(strings: TemplateStringsArray, ...values: HtmlPart[]): Html {
  let text = strings[0]!;
  for (let i = 0; i < values.length; i++) text += part(values[i]!) + strings[i + 1]!;
  return new Html(text);
}
