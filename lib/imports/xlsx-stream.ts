import { Readable } from "node:stream";
import yauzl from "yauzl";
import { ImportFileError } from "./file-error";
import { problem } from "@/lib/i18n/problem";

// ExcelJS gets only the parts it needs, inflated here by yauzl against their declared sizes,
// checked by XmlSizeGuard and re-zipped stored, cut at whole UTF-8 characters (ExcelJS decodes
// each chunk alone), so every byte it parses and keeps is bounded first (docs/decisions/0021-what-an-xlsx-read-keeps.md).

/** Ten times the XML of the longest cell an import accepts. */
export const MAX_XML_CELL = 1 << 20;

/** The workbook and its relationships are only a list of worksheets. */
const MAX_WORKBOOK_PART = 1 << 20;
/** ExcelJS keeps each rich-text run (`<r>`) as objects; formatted text is rare in a list of people. */
export const MAX_RICH_TEXT_RUNS = 100_000;
/** Tags per shared string on average (a spreadsheet writes 4, 5 with a phonetic guide); each piece costs more than its bytes. */
export const SHARED_STRING_TAGS = 5;
/** The most XML of one worksheet row: the widest row accepted, of the longest cells. */
export const MAX_XML_ROW = 2 << 20;
/** At most one `<col>` per column a spreadsheet has. */
export const MAX_COLUMN_DEFINITIONS = 16_384;
/** The longest cell tag (`<c r="…" s="…" t="…">`) read; a spreadsheet writes a few dozen bytes. */
const MAX_CELL_TAG = 256;

/** What an XLSX read may keep, beyond each cell's MAX_XML_CELL. */
export type XlsxLimits = {
  maxUnpacked: number;
  /** The most bytes of the shared strings part, and the most shared strings (`<si>`) in it. */
  maxSharedStringsBytes: number;
  maxSharedStrings: number;
  maxColumns: number;
};

const FIRST = ["xl/_rels/workbook.xml.rels", "xl/workbook.xml", "xl/sharedStrings.xml"];
const SHARED_STRINGS = "xl/sharedStrings.xml";
const EMPTY_SST = Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>');


/** Megabytes, for a problem's `{mb, number} MB`. */
const mb = (bytes: number) => Math.round(bytes / 1e6);

export function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, zip) =>
      error || !zip ? reject(new ImportFileError(problem("imports.zipBroken"))) : resolve(zip),
    ),
  );
}

export function zipEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const all: yauzl.Entry[] = [];
    zip.on("entry", (entry: yauzl.Entry) => {
      all.push(entry);
      zip.readEntry();
    });
    zip.once("end", () => resolve(all));
    zip.once("error", () => reject(new ImportFileError(problem("imports.zipBroken"))));
    zip.readEntry();
  });
}

export function inflated(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) =>
      error || !stream ? reject(new ImportFileError(problem("imports.partUnreadable", { part: entry.fileName.slice(0, 60), detail: error?.message.slice(0, 100) ?? "no data" }))) : resolve(stream),
    ),
  );
}

/** A zip local file header for a stored part of `size` bytes (no data descriptor: the size is known). */
function localHeader(name: string, size: number, crc: number): Buffer {
  const nameBytes = Buffer.from(name, "utf8");
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4); // version needed
  header.writeUInt16LE(0x0800, 6); // the name is UTF-8
  header.writeUInt16LE(0, 8); // stored
  header.writeUInt32LE(0, 10); // time and date
  header.writeUInt32LE(crc >>> 0, 14);
  header.writeUInt32LE(size, 18);
  header.writeUInt32LE(size, 22);
  header.writeUInt16LE(nameBytes.length, 26);
  header.writeUInt16LE(0, 28);
  return Buffer.concat([header, nameBytes]);
}

/** An end of central directory record with no entries: the reader stops there. */
const END = (() => {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  return end;
})();

/** How many bytes at the end of `bytes` begin a UTF-8 character that the next chunk completes. */
function cutCharacter(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if (b < 0x80) return 0;
    if (b >= 0xc0) {
      const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return length > back ? back : 0;
    }
  }
  return 0;
}

const TEXT = 0;
const TAG = 1;
const SPECIAL = 2;
const NO_UNIT = 0;
const OPENS_UNIT = 1;
const CLOSES_UNIT = 2;
const COMMENT_END = Buffer.from("-->");
const CDATA_END = Buffer.from("]]>");
const PI_END = Buffer.from("?>");
const CDATA_START = Buffer.from("![CDATA[");
/** Enough bytes after a `<` to see the tag's name whole (else it waits for the next chunk). */
const LOOKAHEAD = 48;
const isNameEnd = (b: number | undefined) => b === undefined || b <= 0x20 || b === 0x2f || b === 0x3e;

/** What one part may hold besides its cells' bytes: the counts a part's kind is bounded by. */
export type PartLimits = {
  /** Bytes of one cell or shared string, and of any run of text or tag. */
  cell?: number;
  /** Shared strings (`<si>`), tags and comments, and rich-text runs (`<r>`): the shared strings part's. */
  strings?: number;
  tags?: number;
  runs?: number;
  /** Bytes of one row (`<row>`): a worksheet's. */
  row?: number;
  /** The last column a cell (`<c r="…">`) may be in, and the most column definitions (`<col>`): a worksheet's. */
  columns?: number;
  columnDefinitions?: number;
};

/** An Excel column's number from its letters (A is 1, XFD 16,384). */
const columnNumber = (letters: string) => [...letters].reduce((sum, c) => sum * 26 + c.charCodeAt(0) - 64, 0);
const ATTRIBUTE = /([^\s=/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Watches one part's XML as it inflates against `limits`; byte by byte only around a `<`, `indexOf` between. */
export class XmlSizeGuard {
  private mode = TEXT;
  private run = 0;
  /** The end of the comment, CDATA or processing instruction being read. */
  private special = COMMENT_END;
  private action = NO_UNIT;
  private last = 0;
  private carry: Buffer | null = null;
  /** Bytes into the open `<c>` or `<si>` element, or -1 outside one. */
  private unit = -1;
  /** Elements open (a part that ends with some open is cut off). */
  private depth = 0;
  private opens = 0;
  private strings = 0;
  private tags = 0;
  private runs = 0;
  /** Bytes into the open `<row>`, or -1 outside one (when rows are bounded); `rowTag`: its tag is being read. */
  private rowBytes = -1;
  private rowTag = false;
  private columnDefinitions = 0;
  /** The attributes of the cell tag being read (when columns are bounded), or null outside one. */
  private cellTag: Buffer[] | null = null;
  private cellTagBytes = 0;
  private readonly max: number;

  constructor(
    private readonly part: string,
    private readonly limits: PartLimits = {},
  ) {
    this.max = limits.cell ?? MAX_XML_CELL;
  }

  /** The next inflated bytes of the part. */
  check(bytes: Buffer) {
    this.scan(bytes, false);
  }

  end() {
    this.scan(Buffer.alloc(0), true);
    if (this.depth !== 0 || this.mode !== TEXT) {
      throw new ImportFileError(problem("imports.partCut", { part: this.part }));
    }
  }

  private scan(bytes: Buffer, final: boolean) {
    const data = this.carry ? Buffer.concat([this.carry, bytes]) : bytes;
    this.carry = null;
    const length = data.length;
    let i = 0;
    while (i < length) {
      if (this.mode === TEXT) {
        const lt = data.indexOf(0x3c, i);
        if (lt < 0) {
          this.count(length - i);
          return;
        }
        this.count(lt - i);
        if (lt + LOOKAHEAD > length && !final) {
          this.carry = Buffer.from(data.subarray(lt));
          return;
        }
        i = this.openTag(data, lt);
      } else if (this.mode === TAG) {
        const gt = data.indexOf(0x3e, i);
        if (this.cellTag) this.keepCellTag(data.subarray(i, gt < 0 ? length : gt));
        if (gt < 0) {
          this.count(length - i);
          this.last = data[length - 1]!;
          return;
        }
        this.count(gt + 1 - i);
        if (this.cellTag) this.checkCellTag();
        const selfClosing = (gt > i ? data[gt - 1] : this.last) === 0x2f;
        if (this.rowTag && selfClosing) this.rowBytes = -1;
        if (this.action === CLOSES_UNIT) this.unit = -1;
        else if (this.action === OPENS_UNIT && !selfClosing) this.unit = 0;
        if (!selfClosing) this.depth += this.opens;
        this.mode = TEXT;
        this.run = 0;
        i = gt + 1;
      } else {
        const at = data.indexOf(this.special, i);
        if (at < 0) {
          const keep = final ? 0 : Math.min(this.special.length - 1, length - i);
          this.count(length - i - keep);
          if (keep) this.carry = Buffer.from(data.subarray(length - keep));
          return;
        }
        this.count(at + this.special.length - i);
        this.mode = TEXT;
        this.run = 0;
        i = at + this.special.length;
      }
    }
  }

  /** Reads the name of the tag opening at `lt` (the bytes after it are there): what it does to cells. Returns where its name ends. */
  private openTag(data: Buffer, lt: number): number {
    this.run = 0;
    let k = lt + 1;
    const first = data[k];
    this.action = NO_UNIT;
    if (first === 0x21 || first === 0x3f) {
      const special = first === 0x3f ? PI_END : data[k + 1] === 0x2d && data[k + 2] === 0x2d ? COMMENT_END : data.subarray(k, k + CDATA_START.length).equals(CDATA_START) ? CDATA_END : null;
      if (special) {
        this.tagged();
        const skip = special === PI_END ? 1 : special === COMMENT_END ? 3 : CDATA_START.length;
        this.count(1 + skip);
        this.special = special;
        this.mode = SPECIAL;
        return k + skip;
      }
    }
    this.opens = first === 0x2f ? -1 : first === 0x21 ? 0 : 1; // a closing tag, a declaration (<!DOCTYPE …>), an element
    if (first === 0x2f) k++;
    let local = k;
    while (k < data.length && k - lt < LOOKAHEAD && !isNameEnd(data[k])) {
      if (data[k] === 0x3a) local = k + 1;
      k++;
    }
    const name = k - local <= 3 ? data.toString("latin1", local, k) : "";
    if (name === "c" || name === "si") this.action = first === 0x2f ? CLOSES_UNIT : OPENS_UNIT;
    if (this.opens === 1) this.counted(name);
    this.tagged();
    this.rowTag = name === "row" && this.limits.row !== undefined;
    if (this.rowTag) this.rowBytes = first === 0x2f ? -1 : 0;
    this.count(k - lt);
    this.last = data[k - 1]!;
    this.mode = TAG;
    return k;
  }

  /** A tag, comment, CDATA section or processing instruction begins. */
  private tagged() {
    const { tags } = this.limits;
    if (tags !== undefined && ++this.tags > tags) {
      throw new ImportFileError(problem("imports.tooManyTags", { tags, strings: this.limits.strings ?? 0 }));
    }
  }

  /** An element opens: the counts its part is bounded by. */
  private counted(name: string) {
    const { strings, runs, columns, columnDefinitions } = this.limits;
    if (name === "si" && strings !== undefined && ++this.strings > strings) {
      throw new ImportFileError(problem("imports.tooManyStrings", { strings }));
    }
    if (name === "r" && runs !== undefined && ++this.runs > runs) {
      throw new ImportFileError(problem("imports.tooManyRuns", { runs }));
    }
    if (name === "col" && columnDefinitions !== undefined && ++this.columnDefinitions > columnDefinitions) {
      throw new ImportFileError(problem("imports.tooManyColumnDefinitions", { part: this.part, max: columnDefinitions }));
    }
    if (name === "c" && columns !== undefined) {
      this.cellTag = [];
      this.cellTagBytes = 0;
    }
  }

  private keepCellTag(bytes: Buffer) {
    this.cellTagBytes += bytes.length;
    if (this.cellTagBytes > MAX_CELL_TAG) {
      throw new ImportFileError(problem("imports.cellTagLong", { part: this.part, max: MAX_CELL_TAG }));
    }
    this.cellTag!.push(Buffer.from(bytes));
  }

  /** The cell tag is read whole: its reference (`r`) must name a column up to `limits.columns`. */
  private checkCellTag() {
    const attributes = Buffer.concat(this.cellTag!).toString("latin1");
    this.cellTag = null;
    for (const [, name, double, single] of attributes.matchAll(ATTRIBUTE)) {
      if (name !== "r") continue;
      const ref = double ?? single ?? "";
      const parsed = /^([A-Z]{1,3})[1-9]\d{0,6}$/.exec(ref);
      if (!parsed) {
        throw new ImportFileError(problem("imports.cellReference", { part: this.part, ref: ref.slice(0, 20) }));
      }
      if (columnNumber(parsed[1]!) > this.limits.columns!) {
        throw new ImportFileError(problem("imports.cellPastColumns", { letters: parsed[1]!, ref, max: this.limits.columns! }));
      }
    }
  }

  private count(k: number) {
    this.run += k;
    if (this.unit >= 0) this.unit += k;
    if (this.rowBytes >= 0 && (this.rowBytes += k) > this.limits.row!) {
      throw new ImportFileError(problem("imports.rowXmlLarge", { part: this.part, mb: mb(this.limits.row!) }));
    }
    if (this.run > this.max || this.unit > this.max) {
      throw new ImportFileError(problem("imports.cellTextLarge", { part: this.part, mb: mb(this.max) }));
    }
  }
}

/** Refuses a part by its declared size (yauzl refuses one inflating past it) before inflating it. */
function checkDeclaredSize(entry: yauzl.Entry, limits: XlsxLimits) {
  const size = entry.uncompressedSize;
  if (entry.fileName === SHARED_STRINGS && size > limits.maxSharedStringsBytes) {
    throw new ImportFileError(problem("imports.sharedStringsLarge", { mb: mb(size), max: mb(limits.maxSharedStringsBytes) }));
  }
  if (entry.fileName !== SHARED_STRINGS && FIRST.includes(entry.fileName)) checkWorkbookPart(entry);
}

/** Refuses a part that lists the worksheets (the workbook, its relationships) by its declared size. */
export function checkWorkbookPart(entry: yauzl.Entry) {
  if (entry.uncompressedSize > MAX_WORKBOOK_PART) {
    throw new ImportFileError(problem("imports.workbookPartLarge", { part: entry.fileName, bytes: entry.uncompressedSize }));
  }
}

/** The parts ExcelJS needs to read worksheet `worksheet`, checked, as a zip stream of stored parts; refusals are emitted as 400 `invalid_file`. */
export function boundedWorkbook(path: string, worksheet: number, limits: XlsxLimits): Readable {
  const sheet = `xl/worksheets/sheet${worksheet}.xml`;
  const partLimits = (name: string): PartLimits =>
    name === SHARED_STRINGS
      ? { strings: limits.maxSharedStrings, tags: SHARED_STRING_TAGS * limits.maxSharedStrings, runs: MAX_RICH_TEXT_RUNS }
      : name === sheet
        ? { columns: limits.maxColumns, columnDefinitions: MAX_COLUMN_DEFINITIONS, row: MAX_XML_ROW }
        : {};
  async function* parts(): AsyncGenerator<Buffer> {
    const zip = await openZip(path);
    try {
      const all = await zipEntries(zip);
      const names = [...FIRST, sheet];
      const wanted = names.map((name) => all.filter((e) => e.fileName === name));
      for (const group of wanted) {
        if (group.length > 1) throw new ImportFileError(problem("imports.partTwice", { count: group.length, part: group[0]!.fileName }));
        if (group[0]) checkDeclaredSize(group[0], limits);
      }
      let total = 0;
      for (const [k, group] of wanted.entries()) {
        if (group.length === 0 && names[k] === SHARED_STRINGS) {
          yield localHeader(SHARED_STRINGS, EMPTY_SST.length, 0);
          yield EMPTY_SST;
        }
        for (const entry of group) {
          if (total + entry.uncompressedSize > limits.maxUnpacked) {
            throw new ImportFileError(problem("imports.unpacksPast", { mb: mb(limits.maxUnpacked) }));
          }
          yield localHeader(entry.fileName, entry.uncompressedSize, entry.crc32);
          const guard = new XmlSizeGuard(entry.fileName, partLimits(entry.fileName));
          // A part's last bytes go on only once it is all checked: ExcelJS must not see it end before its refusal.
          let ready: Buffer | null = null;
          let cutOff: Buffer | null = null; // a character the next chunk completes
          try {
            for await (const chunk of await inflated(zip, entry)) {
              let bytes = chunk as Buffer;
              total += bytes.length;
              if (total > limits.maxUnpacked) throw new ImportFileError(problem("imports.unpacksPast", { mb: mb(limits.maxUnpacked) }));
              guard.check(bytes);
              if (cutOff) bytes = Buffer.concat([cutOff, bytes]);
              const cut = cutCharacter(bytes);
              cutOff = cut ? bytes.subarray(bytes.length - cut) : null;
              if (bytes.length > cut) {
                if (ready) yield ready;
                ready = bytes.subarray(0, bytes.length - cut);
              }
            }
          } catch (error) {
            if (ImportFileError.is(error)) throw error;
            // yauzl's own checks: more (or fewer) bytes than the zip declares, a bad stream.
            const message = String((error as Error)?.message ?? error);
            throw new ImportFileError(
              /too many bytes/.test(message)
                ? problem("imports.partPastDeclared", { part: entry.fileName, bytes: entry.uncompressedSize })
                : problem("imports.partNotInflated", { part: entry.fileName, detail: message.slice(0, 100) }),
            );
          }
          guard.end();
          if (ready) yield ready;
          if (cutOff) yield cutOff;
        }
      }
      yield END;
    } finally {
      zip.close();
    }
  }
  return Readable.from(parts(), { objectMode: false, highWaterMark: 64 * 1024 });
}
