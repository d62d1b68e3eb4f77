import yauzl from "yauzl";
import { SaxesParser } from "saxes";

// An XLSX read without ExcelJS, the library that writes the export: the zip opened with yauzl,
// every part parsed by a strict XML parser (saxes: well-formedness, XML 1.0's characters), the
// package checked as a strict reader checks it (content types, relationships, styles), and the
// cells read as SpreadsheetML says (ECMA-376 Part 1, 18.3.1.4 `c`; 22.9.2.19 for `_xHHHH_`).

type Node = { name: string; attrs: Record<string, string>; children: Node[]; text: string };

/** A part parsed strictly; throws on anything a conforming XML reader would refuse. */
export function parseXml(xml: string): Node {
  const parser = new SaxesParser({ xmlns: false });
  const root: Node = { name: "#root", attrs: {}, children: [], text: "" };
  const stack: Node[] = [root];
  parser.on("opentag", (tag) => {
    const node: Node = { name: tag.name, attrs: tag.attributes as Record<string, string>, children: [], text: "" };
    stack.at(-1)!.children.push(node);
    stack.push(node);
  });
  parser.on("closetag", () => void stack.pop());
  parser.on("text", (t) => (stack.at(-1)!.text += t));
  parser.on("error", (e) => {
    throw e;
  });
  parser.write(xml).close();
  if (root.children.length !== 1) throw new Error("Not one root element.");
  return root.children[0]!;
}

const all = (node: Node, name: string): Node[] => node.children.filter((c) => c.name === name);
const one = (node: Node, name: string): Node | undefined => node.children.find((c) => c.name === name);

/**
 * The order of an element's children as the schema's `xsd:sequence` has it (ECMA-376 Part 1,
 * 18.3.1.99 CT_Worksheet, 18.2.28 CT_Workbook, 18.8.39 CT_Stylesheet, 18.3.1.87 CT_SheetView,
 * 18.3.1.4 CT_Cell): Excel offers to repair a part whose children are out of this order or
 * unknown. Prefixed elements (markup compatibility, extensions) are left to their own schema.
 */
const SEQUENCES: Record<string, readonly string[]> = {
  worksheet: [
    "sheetPr", "dimension", "sheetViews", "sheetFormatPr", "cols", "sheetData", "sheetCalcPr", "sheetProtection", "protectedRanges",
    "scenarios", "autoFilter", "sortState", "dataConsolidate", "customSheetViews", "mergeCells", "phoneticPr", "conditionalFormatting",
    "dataValidations", "hyperlinks", "printOptions", "pageMargins", "pageSetup", "headerFooter", "rowBreaks", "colBreaks",
    "customProperties", "cellWatches", "ignoredErrors", "smartTags", "drawing", "legacyDrawing", "legacyDrawingHF", "drawingHF",
    "picture", "oleObjects", "controls", "webPublishItems", "tableParts", "extLst",
  ],
  workbook: [
    "fileVersion", "fileSharing", "workbookPr", "workbookProtection", "bookViews", "sheets", "functionGroups", "externalReferences",
    "definedNames", "calcPr", "oleSize", "customWorkbookViews", "pivotCaches", "smartTagPr", "smartTagTypes", "webPublishing",
    "fileRecoveryPr", "webPublishObjects", "extLst",
  ],
  styleSheet: ["numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs", "tableStyles", "colors", "extLst"],
  sheetView: ["pane", "selection", "pivotSelection", "extLst"],
  c: ["f", "v", "is", "extLst"],
};
/** Elements a schema requires. */
const REQUIRED: Record<string, readonly string[]> = { worksheet: ["sheetData"], workbook: ["sheets"] };

/** Throws unless `node`'s children follow its schema's sequence (repeats allowed where they are adjacent). */
function checkOrder(node: Node, where: string) {
  const sequence = SEQUENCES[node.name];
  if (!sequence) return;
  let at = -1;
  for (const child of node.children) {
    if (child.name.includes(":")) continue;
    const i = sequence.indexOf(child.name);
    if (i < 0) throw new Error(`${where}: <${child.name}> is not a child <${node.name}> may have.`);
    if (i < at) throw new Error(`${where}: <${child.name}> comes after <${sequence[at]}> in <${node.name}>, out of the schema's order.`);
    at = i;
  }
  for (const name of REQUIRED[node.name] ?? []) if (!one(node, name)) throw new Error(`${where}: <${node.name}> has no <${name}>.`);
}

/** A collection's `count`, when given, must be its children's number. */
function checkCount(node: Node | undefined, where: string) {
  if (node?.attrs.count !== undefined && Number(node.attrs.count) !== node.children.length) {
    throw new Error(`${where}: <${node.name} count="${node.attrs.count}"> has ${node.children.length} children.`);
  }
}

/** xsd:double's lexical form, as a `<v>` of a number holds it (never NaN or Infinity for a cell). */
const DOUBLE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** Excel's last row and column (XFD). */
const MAX_ROW = 1_048_576;
const MAX_COLUMN = 16_384;
const CELL_TYPES = new Set(["b", "d", "e", "inlineStr", "n", "s", "str"]);

export async function unzip(file: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(file, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (e, z) => (e ? reject(e) : resolve(z))));
  const parts = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      if (parts.has(entry.fileName)) return reject(new Error(`Part ${entry.fileName} twice.`));
      zip.openReadStream(entry, (e, stream) => {
        if (e) return reject(e);
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("error", reject);
        stream.on("end", () => {
          parts.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on("end", () => resolve());
    zip.on("error", reject);
    zip.readEntry();
  });
  return parts;
}

export type ReadCell =
  | { type: "number"; value: number; format: string }
  | { type: "boolean"; value: boolean }
  | { type: "inlineStr" | "shared"; value: string }
  | { type: "other"; raw: string };

export type ReadSheet = {
  name: string;
  /** Rows by their row number - 1; cells by column index; missing cells are undefined. */
  rows: (ReadCell | undefined)[][];
  frozenRows: number;
  widths: number[];
  formulas: number;
  /** Each formula: its cell, the cell's type and the formula's text. */
  formulaCells: { ref: string; type: string; formula: string }[];
};

const MAIN = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml";
const SHEET = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml";
const OFFICE_DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument";
const WORKSHEET_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet";

/** Excel's `_xHHHH_` escapes read back into characters. */
export const unescapeXstring = (s: string) => s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** Column letters → 0-based index. */
function columnIndex(ref: string): number {
  const letters = /^([A-Z]+)\d+$/.exec(ref)![1]!;
  return [...letters].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0) - 1;
}

/** Built-in number formats a date can have (ECMA-376 Part 1, 18.8.30). */
const BUILT_IN: Record<number, string> = { 0: "General", 14: "mm-dd-yy", 22: "m/d/yy h:mm" };

/** The whole workbook, checked as a package and read cell by cell. */
export async function readXlsx(file: Buffer): Promise<{ sheets: ReadSheet[]; parts: Map<string, Buffer> }> {
  const parts = await unzip(file);
  const xml = (name: string) => {
    const part = parts.get(name);
    if (!part) throw new Error(`Missing part ${name}.`);
    return parseXml(part.toString("utf8"));
  };
  // Every XML part must be well-formed, whether or not it is read below.
  for (const [name, data] of parts) if (name.endsWith(".xml") || name.endsWith(".rels")) parseXml(data.toString("utf8"));

  const types = xml("[Content_Types].xml");
  const overrides = new Map(all(types, "Override").map((o) => [o.attrs.PartName!, o.attrs.ContentType!]));
  const defaults = new Map(all(types, "Default").map((d) => [d.attrs.Extension!.toLowerCase(), d.attrs.ContentType!]));
  for (const name of parts.keys()) {
    if (name.endsWith("/")) continue;
    const ext = name.split(".").at(-1)!.toLowerCase();
    if (!overrides.has(`/${name}`) && !defaults.has(ext)) throw new Error(`No content type for ${name}.`);
  }
  for (const partName of overrides.keys()) if (!parts.has(partName.slice(1))) throw new Error(`Content type for a missing part ${partName}.`);

  const rootRels = all(xml("_rels/.rels"), "Relationship");
  const office = rootRels.find((r) => r.attrs.Type === OFFICE_DOC);
  if (!office) throw new Error("No officeDocument relationship.");
  const workbookPath = office.attrs.Target!.replace(/^\//, "");
  if (overrides.get(`/${workbookPath}`) !== MAIN) throw new Error("The workbook's content type is wrong.");
  const base = workbookPath.slice(0, workbookPath.lastIndexOf("/") + 1);
  const relsPath = `${base}_rels/${workbookPath.slice(base.length)}.rels`;
  const rels = new Map(all(xml(relsPath), "Relationship").map((r) => [r.attrs.Id!, r.attrs]));
  for (const r of rels.values()) {
    const target = r.Target!.startsWith("/") ? r.Target!.slice(1) : base + r.Target!;
    if (r.TargetMode !== "External" && !parts.has(target)) throw new Error(`Relationship to a missing part ${target}.`);
  }
  const resolve = (target: string) => (target.startsWith("/") ? target.slice(1) : base + target);

  // Styles: cell style index → number format code.
  const styleRel = [...rels.values()].find((r) => r.Type!.endsWith("/styles"));
  const formats: string[] = [];
  if (styleRel) {
    const styles = xml(resolve(styleRel.Target!));
    checkOrder(styles, "styles");
    for (const name of ["numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles"]) checkCount(one(styles, name), "styles");
    const custom = new Map((one(styles, "numFmts")?.children ?? []).map((f) => [Number(f.attrs.numFmtId), f.attrs.formatCode!]));
    // Built-in formats are 0–163; a workbook's own start at 164.
    for (const id of custom.keys()) if (!(id >= 164)) throw new Error(`styles: a custom number format has the built-in id ${id}.`);
    const sizes = { fontId: one(styles, "fonts")?.children.length ?? 0, fillId: one(styles, "fills")?.children.length ?? 0, borderId: one(styles, "borders")?.children.length ?? 0 };
    for (const xf of all(one(styles, "cellXfs")!, "xf")) {
      const id = Number(xf.attrs.numFmtId ?? 0);
      if (id >= 164 && !custom.has(id)) throw new Error(`styles: a cell style has the undefined number format ${id}.`);
      for (const [attr, size] of Object.entries(sizes)) if (Number(xf.attrs[attr] ?? 0) >= size) throw new Error(`styles: a cell style's ${attr} is past its list.`);
      formats.push(custom.get(id) ?? BUILT_IN[id] ?? `builtin:${id}`);
    }
  }
  const sharedRel = [...rels.values()].find((r) => r.Type!.endsWith("/sharedStrings"));
  const shared = sharedRel ? all(xml(resolve(sharedRel.Target!)), "si").map(stringItem) : [];

  const workbook = xml(workbookPath);
  checkOrder(workbook, "workbook");
  const sheets: ReadSheet[] = [];
  const names = new Set<string>();
  const ids = new Set<string>();
  for (const s of all(one(workbook, "sheets")!, "sheet")) {
    const name = s.attrs.name!;
    // Excel's rules for a sheet's name: 1–31 characters, none of \ / ? * [ ] :, no apostrophe at either end, unique in any case.
    if (names.has(name.toLowerCase()) || name.length === 0 || name.length > 31 || /[\\/?*[\]:]|^'|'$/.test(name)) throw new Error(`Bad sheet name ${name}.`);
    names.add(name.toLowerCase());
    if (!(Number(s.attrs.sheetId) >= 1) || ids.has(s.attrs.sheetId!)) throw new Error(`Sheet ${name} has a missing or repeated sheetId.`);
    ids.add(s.attrs.sheetId!);
    const rel = rels.get(s.attrs["r:id"]!);
    if (!rel || rel.Type !== WORKSHEET_REL) throw new Error(`Sheet ${name} has no worksheet relationship.`);
    const path = resolve(rel.Target!);
    if (overrides.get(`/${path}`) !== SHEET) throw new Error(`Sheet ${name}'s content type is wrong.`);
    sheets.push(readSheet(name, xml(path), formats, shared));
  }
  return { sheets, parts };
}

/** The text of a shared string or inline string: its `t`, or its runs' `t`s joined. */
function stringItem(node: Node): string {
  const t = one(node, "t");
  const text = t ? t.text : all(node, "r").map((r) => one(r, "t")?.text ?? "").join("");
  return unescapeXstring(text);
}

function readSheet(name: string, sheet: Node, formats: string[], shared: string[]): ReadSheet {
  checkOrder(sheet, name);
  for (const view of all(one(sheet, "sheetViews") ?? ({ children: [] } as unknown as Node), "sheetView")) checkOrder(view, name);
  const pane = one(one(one(sheet, "sheetViews") ?? { children: [] } as unknown as Node, "sheetView") ?? ({ children: [] } as unknown as Node), "pane");
  const frozenRows = pane?.attrs.state === "frozen" ? Number(pane.attrs.ySplit ?? 0) : 0;
  const widths: number[] = [];
  for (const col of all(one(sheet, "cols") ?? ({ children: [] } as unknown as Node), "col")) {
    for (let i = Number(col.attrs.min); i <= Number(col.attrs.max); i++) widths[i - 1] = Number(col.attrs.width);
  }
  const rows: (ReadCell | undefined)[][] = [];
  const formulaCells: ReadSheet["formulaCells"] = [];
  let lastRow = 0;
  for (const row of all(one(sheet, "sheetData")!, "row")) {
    const r = Number(row.attrs.r);
    if (!(r > lastRow) || r > MAX_ROW) throw new Error(`Row ${r} out of order or past Excel's last row.`);
    lastRow = r;
    const cells: (ReadCell | undefined)[] = [];
    let lastColumn = -1;
    for (const c of all(row, "c")) {
      const ref = c.attrs.r!;
      if (Number(/\d+$/.exec(ref)![0]) !== r) throw new Error(`Cell ${ref} outside its row ${r}.`);
      const index = columnIndex(ref);
      if (index <= lastColumn || index >= MAX_COLUMN) throw new Error(`Cell ${ref} out of order or past Excel's last column.`);
      lastColumn = index;
      checkOrder(c, `${name}!${ref}`);
      const f = one(c, "f");
      if (f) formulaCells.push({ ref, type: c.attrs.t ?? "n", formula: f.text });
      const v = one(c, "v")?.text;
      const type = c.attrs.t ?? "n";
      if (!CELL_TYPES.has(type)) throw new Error(`${name}!${ref}: no cell type "${type}".`);
      if (c.attrs.s !== undefined && !(Number(c.attrs.s) < Math.max(formats.length, 1))) throw new Error(`${name}!${ref}: style ${c.attrs.s} is not in the styles.`);
      if (type === "inlineStr" && (!one(c, "is") || one(c, "v"))) throw new Error(`${name}!${ref}: an inline string needs <is> and no <v>.`);
      if (type === "n" && v !== undefined && !DOUBLE.test(v)) throw new Error(`${name}!${ref}: "${v}" is not a number.`);
      if (type === "b" && v !== undefined && v !== "0" && v !== "1") throw new Error(`${name}!${ref}: "${v}" is not a boolean.`);
      if (type === "inlineStr") cells[index] = { type: "inlineStr", value: stringItem(one(c, "is")!) };
      else if (type === "s") cells[index] = { type: "shared", value: shared[Number(v)]! };
      else if (type === "b") cells[index] = { type: "boolean", value: v === "1" };
      else if (type === "n" && v !== undefined) cells[index] = { type: "number", value: Number(v), format: formats[Number(c.attrs.s ?? 0)] ?? "General" };
      else cells[index] = { type: "other", raw: `${type}:${v}` };
    }
    rows[r - 1] = cells;
  }
  return { name, rows, frozenRows, widths, formulas: formulaCells.length, formulaCells };
}

/** An Excel serial (1900 system) as the UTC fields of a Date, as a spreadsheet shows it. */
export function fromSerial(serial: number): Date {
  return new Date(Math.round((serial - 25569) * 86_400_000));
}

/**
 * One column's values of every worksheet in order, read as events (a whole workbook of many rows
 * would not fit as a tree): for checking which rows a large export holds.
 */
export async function columnValues(file: Buffer, column = "A"): Promise<{ sheets: string[]; values: string[] }> {
  const parts = await unzip(file);
  const dataCell = new RegExp(`^${column}(?!1$)\\d+$`); // the column's cells below the header
  const workbook = parseXml(parts.get("xl/workbook.xml")!.toString("utf8"));
  const sheets = all(one(workbook, "sheets")!, "sheet").map((s) => s.attrs.name!);
  const values: string[] = [];
  for (let i = 1; i <= sheets.length; i++) {
    const parser = new SaxesParser({ xmlns: false });
    let inCell = false;
    let inValue = false;
    parser.on("opentag", (tag) => {
      if (tag.name === "c") inCell = dataCell.test(String(tag.attributes.r));
      if (tag.name === "v" && inCell) inValue = true;
    });
    parser.on("closetag", (tag) => {
      if (tag.name === "v") inValue = false;
      if (tag.name === "c") inCell = false;
    });
    parser.on("text", (t) => {
      if (inValue) values.push(t);
    });
    parser.on("error", (e) => {
      throw e;
    });
    parser.write(parts.get(`xl/worksheets/sheet${i}.xml`)!.toString("utf8")).close();
  }
  return { sheets, values };
}
