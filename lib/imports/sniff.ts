// What an uploaded file is, from its bytes (never from its name): an XLSX (a zip whose first
// entry… any zip: the reader then says whether it is a workbook), or text: its encoding (a byte
// order mark for UTF-8 and UTF-16; else UTF-8 when its bytes are valid UTF-8, else Windows-1252,
// converted) and its delimiter (comma, semicolon or tab, whichever the header line has most of,
// outside quotes).

export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";
export type Sniffed = { format: "xlsx" } | { format: "csv"; encoding: TextEncoding; bom: number } | { format: "binary"; reason: string };

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0]; // the old .xls
const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);

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
  if (head.length === 0) return { format: "binary", reason: "The file is empty." };
  if (startsWith(head, ZIP)) return { format: "xlsx" };
  if (startsWith(head, OLE)) return { format: "binary", reason: "This is an old Excel file (.xls): save it as .xlsx or CSV and upload that." };
  if (startsWith(head, [0xef, 0xbb, 0xbf])) return { format: "csv", encoding: "utf-8", bom: 3 };
  if (startsWith(head, [0xff, 0xfe])) return { format: "csv", encoding: "utf-16le", bom: 2 };
  if (startsWith(head, [0xfe, 0xff])) return { format: "csv", encoding: "utf-16be", bom: 2 };
  // UTF-16 without a mark: every other byte of Latin text is zero.
  const zeros = head.slice(0, 512).filter((b) => b === 0).length;
  if (zeros > Math.min(head.length, 512) / 4) {
    return { format: "binary", reason: "This looks like UTF-16 text without a byte order mark, or not text at all: save it as UTF-8 CSV (or XLSX)." };
  }
  if (zeros > 0) return { format: "binary", reason: "This is neither CSV nor XLSX (it has bytes text never has)." };
  return { format: "csv", encoding: isUtf8(head) ? "utf-8" : "windows-1252", bom: 0 };
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
