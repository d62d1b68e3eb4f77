// PostgreSQL's COPY text format, read back into rows: what `COPY (SELECT …) TO STDOUT WITH
// (FORMAT text, NULL '')` sends is one line per row, a tab between columns, and backslash
// escapes for a backslash, tab, line feed, carriage return, backspace, form feed and vertical tab
// inside a value (https://www.postgresql.org/docs/current/sql-copy.html, "Text Format"; COPY TO
// writes no other escapes). With NULL '' a null is an empty string: both are an empty CSV cell.
//
// The export reads its rows this way because it is the cheapest way for both sides: PostgreSQL
// formats the values as it does for its own COPY, and Node decodes one string per chunk and splits
// it, where a result set costs a protocol message, two arrays and a decoded string per cell.

const ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/** A value as COPY wrote it, unescaped. */
function unescapeCopyValue(value: string): string {
  return value.includes("\\") ? value.replace(/\\(.)/gs, (_, c: string) => ESCAPES[c] ?? c) : value;
}

/** One line of COPY text (without its line end) as its values. */
export function parseCopyLine(line: string): string[] {
  const values = line.split("\t");
  if (line.includes("\\")) for (let i = 0; i < values.length; i++) values[i] = unescapeCopyValue(values[i]!);
  return values;
}

/**
 * Turns the chunks of one COPY's output into rows. Chunks may end anywhere, even inside a
 * character: the rest waits for the next chunk.
 */
export class CopyTextRows {
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private rest = "";

  /** The rows completed by this chunk (the last chunk of a COPY ends with a line end). */
  push(chunk: Uint8Array | string): string[][] {
    const text = this.rest + (typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true }));
    const end = text.lastIndexOf("\n");
    if (end < 0) {
      this.rest = text;
      return [];
    }
    this.rest = text.slice(end + 1);
    return text.slice(0, end).split("\n").map(parseCopyLine);
  }

  /** After the last chunk: anything left is a cut-off row. */
  end(): void {
    const rest = this.rest + this.decoder.decode();
    if (rest !== "") throw new Error("The database's COPY output ended in the middle of a row.");
  }
}
