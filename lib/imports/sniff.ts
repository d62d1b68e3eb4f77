// What an uploaded file is, from its bytes, never its name: a zip (the reader decides if it is a
// workbook) or text, with its encoding and delimiter. Plainly other formats, documents and binary are refused saying what they look like.

import { problem } from "@/lib/i18n/problem";
import { english } from "./words";

export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";
/** A file refused: `problem` its reason as a problem key (lib/imports/words.ts), `reason` in English. */
export type Sniffed = { format: "xlsx" } | { format: "csv"; encoding: TextEncoding; bom: number } | { format: "binary"; reason: string; problem: string };

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0]; // the old .xls
const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** Other formats by their first bytes. */
const MAGIC: [number[], Kind][] = [
  [ascii("%PDF-"), "pdf"],
  [ascii("%!PS-Adobe"), "postscript"],
  [ascii("{\\rtf"), "rtf"],
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "png"],
  [[0xff, 0xd8, 0xff], "jpeg"],
  [ascii("GIF87a"), "gif"],
  [ascii("GIF89a"), "gif"],
  [[0x1f, 0x8b, 0x08], "gzip"],
  [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], "sevenZip"],
  [[0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], "rar"],
  [[0x7f, 0x45, 0x4c, 0x46], "program"],
  [[...ascii("SQLite format 3"), 0], "sqlite"],
];

/** Text that is a document of another kind from its first characters. */
const TEXT_KINDS: [RegExp, Kind][] = [
  [/^\s*\{\s*("|\}|$)/, "json"],
  [/^\s*\[\s*(\{|\[|\]|"[^"\r\n]*"\s*[,\]]|-?\d+(\.\d+)?\s*[,\]]|(true|false|null)\s*[,\]]|$)/, "json"],
  [/^\s*<(\?xml|!doctype|html|head|body|svg|rss|feed|!--)/i, "xml"],
];

/** The kinds of file told apart, named in `problems.imports.notASheet`. */
type Kind = "pdf" | "postscript" | "rtf" | "png" | "jpeg" | "gif" | "gzip" | "sevenZip" | "rar" | "program" | "sqlite" | "json" | "xml";

const refused = (p: string): Sniffed => ({ format: "binary", reason: english(p), problem: p });
const notASheet = (kind: Kind) => refused(problem("imports.notASheet", { kind }));

/** Control characters text never has (tab, line breaks, form feed, and a DOS end-of-file mark aside). */
function controls(head: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < head.length; i++) {
    const b = head[i]!;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && !(b === 0x1a && i === head.length - 1)) n++;
  }
  return n;
}

/** Whether `bytes` is valid UTF-8 (a cut-off character at the very end is fine: the head was cut there). */
export function isUtf8(bytes: Uint8Array): boolean {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (n < 0) return false;
    for (let k = 1; k <= n; k++) {
      if (i + k >= bytes.length) return true;
      const c = bytes[i + k]!;
      if (c < 0x80 || c > 0xbf) return false;
    }
    i += n + 1;
  }
  return true;
}

/** The file's kind from its first bytes (a few KB are plenty). */
export function sniff(head: Uint8Array): Sniffed {
  if (head.length === 0) return refused(problem("imports.fileEmpty"));
  if (startsWith(head, ZIP)) return { format: "xlsx" };
  if (startsWith(head, OLE)) return refused(problem("imports.oldExcel"));
  const magic = MAGIC.find(([sig]) => startsWith(head, sig));
  if (magic) return notASheet(magic[1]);
  let text: Sniffed;
  if (startsWith(head, [0xef, 0xbb, 0xbf])) text = { format: "csv", encoding: "utf-8", bom: 3 };
  else if (startsWith(head, [0xff, 0xfe])) text = { format: "csv", encoding: "utf-16le", bom: 2 };
  else if (startsWith(head, [0xfe, 0xff])) text = { format: "csv", encoding: "utf-16be", bom: 2 };
  else {
    // UTF-16 without a mark: every other byte of Latin text is zero.
    const zeros = head.slice(0, 512).filter((b) => b === 0).length;
    if (zeros > Math.min(head.length, 512) / 4) {
      return refused(problem("imports.utf16"));
    }
    if (zeros > 0 || controls(head) > Math.max(4, head.length / 1000)) return refused(problem("imports.binary"));
    text = { format: "csv", encoding: isUtf8(head) ? "utf-8" : "windows-1252", bom: 0 };
  }
  const start = new TextDecoder(text.encoding, { ignoreBOM: true }).decode(head.subarray(text.bom, text.bom + 1024));
  const kind = TEXT_KINDS.find(([pattern]) => pattern.test(start));
  if (kind) return notASheet(kind[1]);
  return text;
}

/** The delimiter of a CSV's header line: the most frequent of , ; and tab outside quotes (comma on a tie). */
export function detectDelimiter(firstLine: string): "," | ";" | "\t" {
  const count = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const c of firstLine) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "," || c === ";" || c === "\t")) count[c]++;
  }
  const best = (Object.entries(count) as [keyof typeof count, number][]).sort((a, b) => b[1] - a[1])[0]!;
  return best[1] > count[","] ? best[0] : ",";
}
