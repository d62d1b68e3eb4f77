// A text cell's value as an XLSX stores it (ECMA-376 Part 1, 22.9.2.19 ST_Xstring): a character
// XML cannot carry, or would change (control characters, CR, U+FFFE/U+FFFF), is written as
// `_xHHHH_`, which Excel and LibreOffice read back as that character (DEL is XML's, and written as
// it is: LibreOffice does not read `_x007F_` back); a text that itself looks
// like such an escape gets its `_` escaped (`_x005F_`) so it reads back as typed. Excel keeps at
// most 32,767 characters in a cell: a longer one is cut there (docs/decisions/0025-xlsx-export.md).

export const XLSX_CELL_MAX = 32_767;

const ESCAPED = /[\u0000-\u0008\u000B-\u001F\uFFFE\uFFFF]|_(?=x[0-9A-Fa-f]{4}_)/;
const ESCAPED_ALL = new RegExp(ESCAPED.source, "g");

const escape = (c: string) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}_`;

const STORED_ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

/** The text a stored value stands for, every `_xHHHH_` read back as its character: how the import reads a cell. */
export function fromXlsxText(stored: string): string {
  return stored.includes("_x") ? stored.replace(STORED_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : stored;
}

export function xlsxText(value: string): string {
  const text = ESCAPED.test(value) ? value.replace(ESCAPED_ALL, escape) : value;
  return text.length > XLSX_CELL_MAX ? cut(text) : text;
}

/** The first XLSX_CELL_MAX characters, never ending inside an escape or a surrogate pair. */
function cut(text: string): string {
  let end = XLSX_CELL_MAX;
  const escapeStart = text.lastIndexOf("_x", end - 1);
  if (escapeStart > end - 7 && /^_x[0-9A-F]{4}_/.test(text.slice(escapeStart, escapeStart + 7))) end = escapeStart;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

