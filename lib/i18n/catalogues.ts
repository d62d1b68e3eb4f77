import ar from "@/messages/ar.json";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import type { Locale } from "./locales";

// One catalogue file per language (messages/); tests/unit/catalogues.test.ts keeps them in step with
// English and with the keys the code uses.
export type Messages = typeof en;

const CATALOGUES: Record<Locale, Messages> = { en, fr, ar };

export const catalogue = (locale: Locale): Messages => CATALOGUES[locale];

type Paths<T, P extends string = ""> = { [K in keyof T & string]: T[K] extends string ? `${P}${K}` : `${P}${K}` | Paths<T[K], `${P}${K}.`> }[keyof T & string];
/**
 * A group of the catalogue: a namespace (`branches`), a group inside one (`problems.branches`), or
 * one message (`list.selectPage`) where a client part reads a few of a group the server reads whole.
 */
export type MessageGroup = Paths<Messages>;

/** The groups a client subtree needs, and nothing else: the rest never reaches the browser. */
export function pickMessages(messages: Messages, groups: readonly MessageGroup[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const group of groups) {
    const parts = group.split(".");
    let from: unknown = messages;
    let into = out;
    parts.forEach((part, i) => {
      from = (from as Record<string, unknown>)[part];
      if (i === parts.length - 1) into[part] = from;
      else into = (into[part] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}
