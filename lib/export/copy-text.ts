// PostgreSQL's COPY text format read back into rows (one line per row, tabs between values,
// backslash escapes; NULL '' reads as empty). The export uses COPY because it is the cheapest
// way for both sides, PostgreSQL formatting and Node splitting one string per chunk.

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

/** Turns one COPY's chunks into rows; a chunk may end anywhere, even inside a character. */
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
