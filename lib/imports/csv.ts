import type { Readable, TransformCallback } from "node:stream";
import { CsvError, Parser, type Options } from "csv-parse";
import { BrandedError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { english } from "./words";

// A CSV's records as its text streams in (csv-parse), each with the physical line it starts on.
// A record past `maxRecord` stops the read, so a quote left open cannot swallow the file into
// memory. Lenient as spreadsheets are: stray quotes kept, rows of any length passed on for the
// import to reject one by one; blank rows skipped.

/** The file's shape stops the reading (a quote never closed, a record too long); the message names the line. */
export class CsvShapeError extends BrandedError {
  static readonly brand: string = "console.CsvShapeError";

  /** The message as a problem key (lib/imports/words.ts); `message` is its English. */
  readonly problem: string;

  constructor(problem: string) {
    super(english(problem));
    this.problem = problem;
  }
}

export type CsvRecord = { cells: string[]; line: number };


/** Line breaks in a cell as a person counts them; csv-parse's `info.lines` counts a quoted `\r\n` twice. */
function breaks(cell: string): number {
  let k = 0;
  for (let i = 0; i < cell.length; i++) {
    const c = cell.charCodeAt(i);
    if (c === 10) k++;
    else if (c === 13 && cell.charCodeAt(i + 1) !== 10) k++;
  }
  return k;
}

function blank(cells: string[]): boolean {
  for (const c of cells) if (c.trim() !== "") return false;
  return true;
}

/**
 * csv-parse counting each record's physical lines. A file error is passed in order after the
 * records before it, so where a chunk happens to end never decides whether an upload is refused.
 */
class LineCountingParser extends Parser {
  /** The physical lines of the records parsed so far: the next one starts on the line after. */
  private lines = 0;

  constructor(
    options: Options,
    private readonly maxRecord: number,
  ) {
    super(options);
  }

  override push(record: unknown, encoding?: BufferEncoding): boolean {
    if (!Array.isArray(record)) return super.push(record, encoding);
    const line = this.lines + 1;
    this.lines += 1;
    for (const cell of record as string[]) this.lines += breaks(cell);
    if (blank(record as string[])) return true; // blank lines and blank rows: counted, skipped
    return super.push({ cells: record, line } satisfies CsvRecord, encoding);
  }

  override _transform(chunk: Buffer, encoding: BufferEncoding, callback: TransformCallback): void {
    super._transform(chunk, encoding, (error) => this.settle(error, callback));
  }

  override _flush(callback: TransformCallback): void {
    super._flush((error) => this.settle(error, callback));
  }

  private settle(error: Error | null | undefined, callback: TransformCallback) {
    if (!(error instanceof CsvError)) return callback(error);
    // csv-parse keeps whether it is inside a quote in its state, not in the error.
    const quoting = (this as unknown as { state?: { quoting?: boolean } }).state?.quoting === true;
    super.push(shapeError(error, this.lines + 1, quoting, this.maxRecord)); // csv-parse reads no further
    callback();
  }
}

/** The records of `text` (a stream of decoded strings), delimited by `delimiter`. */
export async function* csvRecords(text: Readable, delimiter: string, maxRecord: number): AsyncGenerator<CsvRecord> {
  const parser = new LineCountingParser(
    {
      delimiter,
      bom: true,
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: false, // counted by the parser above, then skipped
      max_record_size: maxRecord,
    },
    maxRecord,
  );
  text.on("error", (e) => parser.destroy(e));
  text.pipe(parser);
  try {
    for await (const record of parser as AsyncIterable<CsvRecord | CsvShapeError>) {
      if (CsvShapeError.is(record)) throw record;
      yield record;
    }
  } finally {
    text.unpipe(parser);
    parser.destroy();
  }
}

function shapeError(error: CsvError, line: number, quoting: boolean, maxRecord: number): CsvShapeError {
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return new CsvShapeError(problem("imports.quoteNotClosed", { line }));
    case "CSV_MAX_RECORD_SIZE":
      return new CsvShapeError(
        problem(quoting ? "imports.quoteTooLong" : "imports.rowTooLong", { line, max: maxRecord }),
      );
    default:
      // Not expected with these options; still the file's fault.
      return new CsvShapeError(problem("imports.csvUnreadable", { line, detail: error.message.slice(0, 160) }));
  }
}
