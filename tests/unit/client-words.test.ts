import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BRANCH_TABLE_CLIENT_WORDS, ERROR_BOUNDARY_WORDS, LIST_CLIENT_WORDS, LOGIN_CLIENT_WORDS, VIEWS_CLIENT_WORDS } from "@/lib/i18n/client-words";

// The client parts handed only some messages of a namespace (lib/i18n/client-words.ts) must read
// nothing else: a message missing from the browser's catalogue shows its key. Each file's
// translators are found as the code writes them (`const t = useTranslations("ns")`, the list's
// `useListWords()`, or a translator passed in, named in FILES), and every key they are called with
// must be one of the listed messages or inside a listed group.

const root = path.resolve(__dirname, "../..");

/** Each client part, the words it is handed, and the namespace of a translator it takes as a parameter. */
const FILES: { file: string; words: readonly string[]; parameter?: string }[] = [
  { file: "app/error.tsx", words: ERROR_BOUNDARY_WORDS },
  { file: "app/global-error.tsx", words: ERROR_BOUNDARY_WORDS },
  { file: "components/page-state.tsx", words: ERROR_BOUNDARY_WORDS },
  { file: "components/list/filter-bar.tsx", words: LIST_CLIENT_WORDS },
  { file: "components/list/select-page.tsx", words: LIST_CLIENT_WORDS },
  { file: "components/list/list-table.tsx", words: LIST_CLIENT_WORDS },
  { file: "components/list/pager.tsx", words: LIST_CLIENT_WORDS },
  { file: "components/list/sort-header.tsx", words: LIST_CLIENT_WORDS },
  { file: "components/list/table-skeleton.tsx", words: LIST_CLIENT_WORDS },
  { file: "components/list/filter-chip-words.ts", words: LIST_CLIENT_WORDS, parameter: "list" },
  { file: "components/export/export-parts.tsx", words: [...LIST_CLIENT_WORDS, "export", "fields"] },
  { file: "app/(console)/branches/delete-branch-button.tsx", words: BRANCH_TABLE_CLIENT_WORDS },
  { file: "app/(console)/views/views-menu-forms.tsx", words: VIEWS_CLIENT_WORDS },
  { file: "app/(console)/views/view-actions.tsx", words: VIEWS_CLIENT_WORDS },
  { file: "app/login/login-form.tsx", words: LOGIN_CLIENT_WORDS },
  { file: "app/login/sso-button.tsx", words: LOGIN_CLIENT_WORDS },
];

/** The first argument of the call whose "(" is at `open`. */
function firstArgument(source: string, open: number): string {
  let depth = 0;
  for (let i = open + 1; i < source.length; i++) {
    const c = source[i]!;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && depth-- === 0) return source.slice(open + 1, i);
    else if (c === "," && depth === 0) return source.slice(open + 1, i);
  }
  return source.slice(open + 1);
}

/**
 * The keys a file reads, with their namespaces: every string a call's first argument holds (`t(a ?
 * "x" : "y")` reads both). A key built at run time, or a call with no string, is returned as
 * `ns.<dynamic: …>`, which nothing covers.
 */
function keysRead(source: string, parameter?: string): string[] {
  const translators = new Map<string, string>();
  for (const m of source.matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*useTranslations\((?:"([^"]*)")?\)/g)) translators.set(m[1]!, m[2] ?? "");
  for (const m of source.matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*useListWords\(\)/g)) translators.set(m[1]!, "list");
  if (parameter && !translators.has("t")) translators.set("t", parameter);
  const keys: string[] = [];
  for (const [name, namespace] of translators) {
    const at = (key: string) => (namespace ? `${namespace}.${key}` : key);
    for (const call of source.matchAll(new RegExp(`(?<![\\w.])${name}(?:\\.rich|\\.markup|\\.has)?\\(`, "g"))) {
      const argument = firstArgument(source, call.index + call[0].length - 1);
      // A conditional's keys are its branches (`t(on ? "a" : "b")`), not the strings its test compares.
      const branches = argument.includes("?") ? argument.slice(argument.indexOf("?") + 1) : argument;
      const strings = [...branches.matchAll(/(["'`])((?:(?!\1).)*)\1/g)];
      if (strings.length === 0 || strings.some((m) => m[2]!.includes("${"))) keys.push(at(`<dynamic: ${argument.trim()}>`));
      else for (const m of strings) keys.push(at(m[2]!));
    }
  }
  return keys;
}

const covered = (key: string, words: readonly string[]) => words.some((w) => key === w || key.startsWith(`${w}.`));

describe("messages handed to client parts", () => {
  it.each(FILES)("$file reads only what it is handed", ({ file, words, parameter }) => {
    const keys = keysRead(fs.readFileSync(path.join(root, file), "utf8"), parameter);
    expect(keys.length, `${file} reads no message: is the pattern out of date?`).toBeGreaterThan(0);
    expect(keys.filter((k) => !covered(k, words))).toEqual([]);
  });

  it("finds a message outside what a part is handed, however the key is written", () => {
    const planted = [
      `const t = useTranslations("list");`,
      `const x = t("summary.showing");`,
      `const y = t.rich(kind === "x" ? "filterBar.apply" : "pages.first", { b: (c) => c });`,
      "const z = t(`nouns.${noun}`);",
      `const w = t(key);`,
    ].join("\n");
    expect(keysRead(planted).filter((k) => !covered(k, LIST_CLIENT_WORDS))).toEqual(["list.summary.showing", "list.pages.first", "list.<dynamic: `nouns.${noun}`>", "list.<dynamic: key>"]);
  });
});
