import { Readable } from "node:stream";
import yauzl from "yauzl";
import { ImportFileError } from "./file-error";

// What ExcelJS's streaming reader is given to read an XLSX: not the uploaded zip (its reader
// would inflate whatever the zip holds, whatever sizes its headers claim) but the parts it reads,
// inflated here by yauzl from the central directory, one after the other, and passed on stored
// (not compressed) in a zip of their own. So every byte ExcelJS parses was counted here first:
// - a part inflating past the size the zip declares for it is refused (yauzl checks it as it
//   inflates), and all parts together past `maxUnpacked`: a zip bomb with false sizes stops at
//   its first lie, before its data is held anywhere;
// - no run of text or tag in the XML, and no cell (`<c>`) or shared string (`<si>`), may exceed
//   MAX_XML_CELL bytes: one giant cell cannot fill memory (saxes and ExcelJS build each text
//   whole) whatever the total;
// - chunks are cut at whole UTF-8 characters (ExcelJS decodes each chunk on its own).
// The parts come in the order the streaming reader wants them (the workbook, its relationships,
// shared strings and styles before any worksheet; an empty shared-string table when the file
// has none), so it never has to park a worksheet in a temporary file.

/** A cell of 10,000 characters (the most a row may have) is at most ~100 KB of XML; 1 MB is ten times that. */
export const MAX_XML_CELL = 1 << 20;

const FIRST = ["xl/_rels/workbook.xml.rels", "xl/workbook.xml", "xl/sharedStrings.xml", "xl/styles.xml"];
const WORKSHEET = /^xl\/worksheets\/sheet\d+\.xml$/;
const EMPTY_SST = Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>');


const mb = (bytes: number) => `${Math.round(bytes / 1e6).toLocaleString("en")} MB`;

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, zip) =>
      error || !zip ? reject(new ImportFileError("This is not a readable XLSX file (its zip structure is broken).")) : resolve(zip),
    ),
  );
}

function entries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const all: yauzl.Entry[] = [];
    zip.on("entry", (entry: yauzl.Entry) => {
      all.push(entry);
      zip.readEntry();
    });
    zip.once("end", () => resolve(all));
    zip.once("error", () => reject(new ImportFileError("This is not a readable XLSX file (its zip structure is broken).")));
    zip.readEntry();
  });
}

function inflated(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) =>
      error || !stream ? reject(new ImportFileError(`This XLSX's part ${entry.fileName.slice(0, 60)} cannot be read (${error?.message.slice(0, 100) ?? "no data"}).`)) : resolve(stream),
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

/**
 * Watches one part's XML as it inflates: the bytes of a text, a tag, a comment or CDATA between
 * two markup characters, and of one cell (`<c>`) or shared string (`<si>`), each at most `max`.
 * Byte by byte only around a `<`; `indexOf` between.
 */
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

  constructor(
    private readonly part: string,
    private readonly max = MAX_XML_CELL,
  ) {}

  /** The next inflated bytes of the part. */
  check(bytes: Buffer) {
    this.scan(bytes, false);
  }

  /** The part is complete. */
  end() {
    this.scan(Buffer.alloc(0), true);
    if (this.depth !== 0 || this.mode !== TEXT) {
      throw new ImportFileError(`This XLSX's part ${this.part} ends in the middle of its XML: the file is cut off or damaged (open it in a spreadsheet and save it again).`);
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
        if (gt < 0) {
          this.count(length - i);
          this.last = data[length - 1]!;
          return;
        }
        this.count(gt + 1 - i);
        const selfClosing = (gt > i ? data[gt - 1] : this.last) === 0x2f;
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
    const name = k - local;
    if ((name === 1 && data[local] === 0x63) || (name === 2 && data[local] === 0x73 && data[local + 1] === 0x69)) {
      this.action = first === 0x2f ? CLOSES_UNIT : OPENS_UNIT;
    }
    this.count(k - lt);
    this.last = data[k - 1]!;
    this.mode = TAG;
    return k;
  }

  private count(k: number) {
    this.run += k;
    if (this.unit >= 0) this.unit += k;
    if (this.run > this.max || this.unit > this.max) {
      throw new ImportFileError(
        `A cell of this XLSX (in ${this.part}) holds more than ${mb(this.max)} of text, where a cell imported holds at most 10,000 characters: the file is refused (is it the right one?).`,
      );
    }
  }
}

/**
 * The parts of the XLSX at `path` that ExcelJS reads, inflated and checked as described above,
 * as a zip stream of stored parts. Refusals are 400 `invalid_file` errors, emitted by the stream.
 */
export function boundedWorkbook(path: string, maxUnpacked: number): Readable {
  async function* parts(): AsyncGenerator<Buffer> {
    const zip = await openZip(path);
    try {
      const all = await entries(zip);
      const wanted = [...FIRST.map((name) => all.filter((e) => e.fileName === name)), all.filter((e) => WORKSHEET.test(e.fileName))];
      for (const group of wanted.slice(0, FIRST.length)) {
        if (group.length > 1) throw new ImportFileError(`This XLSX has ${group.length} parts named ${group[0]!.fileName}: it is not a workbook a spreadsheet wrote.`);
      }
      const names = new Set<string>();
      for (const e of wanted[FIRST.length]!) {
        if (names.has(e.fileName)) throw new ImportFileError(`This XLSX has two parts named ${e.fileName}: it is not a workbook a spreadsheet wrote.`);
        names.add(e.fileName);
      }
      let total = 0;
      for (const [k, group] of wanted.entries()) {
        if (group.length === 0 && FIRST[k] === "xl/sharedStrings.xml") {
          yield localHeader(FIRST[k], EMPTY_SST.length, 0);
          yield EMPTY_SST;
        }
        for (const entry of group) {
          if (total + entry.uncompressedSize > maxUnpacked) {
            throw new ImportFileError(`This XLSX unpacks to more than the ${mb(maxUnpacked)} accepted: it is refused (save it as CSV, or split it).`);
          }
          yield localHeader(entry.fileName, entry.uncompressedSize, entry.crc32);
          const guard = new XmlSizeGuard(entry.fileName);
          // The last bytes of a part are passed on only once the whole part is checked: ExcelJS
          // must not see a part end before its refusal.
          let ready: Buffer | null = null;
          let cutOff: Buffer | null = null; // a character the next chunk completes
          try {
            for await (const chunk of await inflated(zip, entry)) {
              let bytes = chunk as Buffer;
              total += bytes.length;
              if (total > maxUnpacked) throw new ImportFileError(`This XLSX unpacks to more than the ${mb(maxUnpacked)} accepted: it is refused (save it as CSV, or split it).`);
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
                ? `This XLSX's part ${entry.fileName} unpacks to more than the ${entry.uncompressedSize.toLocaleString("en")} bytes its zip declares (a zip bomb, or a damaged file): it is refused unread.`
                : `This XLSX's part ${entry.fileName} cannot be inflated (${message.slice(0, 100)}): the file is damaged.`,
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
