import fs from "node:fs";
import path from "node:path";
import { TYPE, parse, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { LOCALES } from "@/lib/i18n/locales";

// Adding a language is adding one catalogue file: these keep every catalogue in step with English
// (same keys, same placeholders) and English in step with the code (no key the code never names).

const root = path.resolve(__dirname, "../..");
const catalogue = (locale: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(root, "messages", `${locale}.json`), "utf8"));

function flatten(tree: Record<string, unknown>, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(name, value);
    else if (value && typeof value === "object") for (const [k, v] of flatten(value as Record<string, unknown>, name)) out.set(k, v);
    else throw new Error(`${name} is neither a message nor a group`);
  }
  return out;
}

/** The arguments and tags a message names, with the kind of each (`count` as a plural, `b` as a tag). */
function placeholders(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const e of elements) {
    if (e.type === TYPE.argument || e.type === TYPE.number || e.type === TYPE.date || e.type === TYPE.time) into.add(`${e.value}`);
    else if (e.type === TYPE.plural || e.type === TYPE.select) {
      into.add(`${e.value}:${e.type === TYPE.plural ? "plural" : "select"}`);
      for (const option of Object.values(e.options)) placeholders(option.value, into);
    } else if (e.type === TYPE.tag) {
      into.add(`<${e.value}>`);
      placeholders(e.children, into);
    }
  }
  return into;
}

const english = flatten(catalogue("en"));

describe("message catalogues", () => {
  it.each(LOCALES.filter((l) => l !== "en"))("%s has exactly English's keys", (locale) => {
    const keys = [...flatten(catalogue(locale)).keys()];
    expect(keys.filter((k) => !english.has(k)), "keys English does not have").toEqual([]);
    expect([...english.keys()].filter((k) => !keys.includes(k)), "keys missing").toEqual([]);
  });

  it.each(LOCALES)("every %s message is valid ICU, with English's placeholders", (locale) => {
    const messages = flatten(catalogue(locale));
    const wrong: string[] = [];
    for (const [key, message] of messages) {
      const ours = [...placeholders(parse(message))].sort();
      const theirs = [...placeholders(parse(english.get(key) ?? ""))].sort();
      if (ours.join() !== theirs.join()) wrong.push(`${key}: ${ours.join(" ")} ≠ ${theirs.join(" ")}`);
    }
    expect(wrong).toEqual([]);
  });

  it("counts shown in Arabic and French take each of their plural forms", () => {
    // Arabic has six plural categories, French two: a bare `other` (or `{n, number}`) reads wrongly for some counts.
    const forms = (message: string): string[][] => {
      const out: string[][] = [];
      const walk = (elements: MessageFormatElement[]) => {
        for (const e of elements) {
          if (e.type === TYPE.plural) out.push(Object.keys(e.options).filter((o) => !o.startsWith("=")).sort());
          if (e.type === TYPE.plural || e.type === TYPE.select) for (const option of Object.values(e.options)) walk(option.value);
          if (e.type === TYPE.tag) walk(e.children);
        }
      };
      walk(parse(message));
      return out;
    };
    const counted = ["problems.merge.stale", "problems.merge.staleNoFields", "users.table.branchesMore", "trash.table.andMore", "problems.load.tooManyLists", "problems.tokens.expiryTooFar"];
    const [fr, ar] = [flatten(catalogue("fr")), flatten(catalogue("ar"))];
    for (const key of counted) {
      expect(forms(ar.get(key) ?? ""), `ar ${key}`).toEqual([["few", "many", "one", "other", "two", "zero"]]);
      expect(forms(fr.get(key) ?? ""), `fr ${key}`).toEqual([["one", "other"]]);
    }
  });

  it("names no key the code does not use", () => {
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== "generated" && entry.name !== "node_modules") walk(full);
        } else if (/\.tsx?$/.test(entry.name)) sources.push(fs.readFileSync(full, "utf8"));
      }
    };
    for (const dir of ["app", "components", "lib"]) walk(path.join(root, dir));

    const used = new Set<string>();
    const prefixes: string[] = [];
    for (const text of sources) {
      // The namespaces a file's translators are made for: useTranslations("x") / getTranslations("x").
      const namespaces = [...text.matchAll(/(?:use|get)Translations\(\s*["'`]([\w.]+)["'`]/g)].map((m) => m[1] ?? "");
      const literals = [...text.matchAll(/["'`]([\w-]+(?:\.[\w-]+)*)["'`]/g)].map((m) => m[1] ?? "");
      // A key built at run time names its group: t(`status.${s}`) uses every key under `status`.
      const templates = [...text.matchAll(/`([\w.]+\.)\$\{/g)].map((m) => m[1] ?? "");
      for (const literal of literals) {
        used.add(literal);
        // problem("branches.nameTaken") names problems.branches.nameTaken (lib/i18n/problem.ts).
        used.add(`problems.${literal}`);
        for (const ns of namespaces) used.add(`${ns}.${literal}`);
      }
      for (const prefix of templates) {
        prefixes.push(prefix, `problems.${prefix}`);
        for (const ns of namespaces) prefixes.push(`${ns}.${prefix}`);
      }
    }
    const unused = [...english.keys()].filter((key) => !used.has(key) && !prefixes.some((p) => key.startsWith(p)));
    expect(unused).toEqual([]);
  });
});
