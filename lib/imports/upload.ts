import "server-only";
import { Readable, Transform } from "node:stream";
import busboy from "busboy";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { storage } from "@/lib/storage";
import { withoutUnsafeText } from "@/lib/validation/text";
import { problem } from "@/lib/i18n/problem";
import { importFieldsSchema } from "./schema";
import { detectDelimiter, sniff } from "./sniff";
import { sourceKey, type ImportSource } from "./source";

// The upload: multipart streamed into storage (413 past IMPORT_MAX_MB), its kind from its bytes
// (sniff.ts). Each part is accepted once: with a field sent twice, the order of parts would
// decide which counts. The file's name passes the text rule: it is shown and names the sheet.

const HEAD_BYTES = 64 * 1024;
const MAX_FIELD = 64 * 1024;

export type Upload = { fileName: string; source: ImportSource; size: number; fields: Record<string, string> };

const FIELDS = Object.keys(importFieldsSchema.shape);
const partName = (name: string) => JSON.stringify(name.slice(0, 40));
const badPart = (message: string) => new AppError(400, "invalid_input", message);
const fieldList = FIELDS.join(", ");

/** The name an uploaded file is shown by: its last path segment, passed through the text rule; "upload" when nothing is left. */
export function uploadedFileName(given: string | undefined): string {
  const base = (given ?? "").replace(/^.*[\\/]/, "");
  return withoutUnsafeText(withoutUnsafeText(base).slice(0, 200)) || "upload";
}

const tooLarge = (mb: number) => new AppError(413, "too_large", problem("imports.tooLarge", { mb }));

/** The text of the head's first line (for the delimiter), decoded as the file will be. */
function firstLine(head: Buffer, source: Extract<ImportSource, { format: "csv" }>): string {
  const text = new TextDecoder(source.encoding, { ignoreBOM: true }).decode(head.subarray(source.bom));
  const end = text.search(/\r|\n/);
  return end < 0 ? text : text.slice(0, end);
}

/** Reads the request's multipart body into storage under `sourceKey(id)`; the other parts are small text fields. */
export async function receiveUpload(request: Request, id: string): Promise<Upload> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new AppError(415, "unsupported_media_type", problem("imports.notMultipart"));
  }
  const maxMb = config().IMPORT_MAX_MB;
  const max = maxMb * 1024 * 1024;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > max + 16 * MAX_FIELD) throw tooLarge(maxMb);
  if (!request.body) throw new AppError(400, "invalid_input", problem("imports.noBody"));

  const fields: Record<string, string> = {};
  let fileName: string | null = null;
  let head = Buffer.alloc(0);
  let size = 0;
  let stored: Promise<number> | null = null;
  let counter: Transform | null = null;
  const key = sourceKey(id);
  const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);

  await new Promise<void>((resolve, reject) => {
    let parser: busboy.Busboy;
    // On any failure stop reading at once and fail the stored write, so nothing half-written stays.
    const fail = (error: AppError) => {
      reject(error);
      body.unpipe();
      body.destroy();
      counter?.destroy(error);
    };
    try {
      parser = busboy({
        headers: { "content-type": type },
        defParamCharset: "utf8",
        // A second file is refused by name, like any part an import does not take.
        limits: { files: 2, fileSize: max, fields: 10, fieldSize: MAX_FIELD, parts: 12 },
      });
    } catch {
      return reject(new AppError(400, "invalid_input", problem("imports.noBoundary")));
    }
    parser.on("file", (name, stream, info) => {
      if (name !== "file" || fileName !== null) {
        stream.resume();
        return fail(badPart(name === "file" ? problem("imports.oneFile") : problem("imports.unknownPart", { name: partName(name), names: fieldList })));
      }
      fileName = uploadedFileName(info.filename);
      counter = new Transform({
        transform(chunk: Buffer, _e, done) {
          size += chunk.length;
          if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
          done(null, chunk);
        },
      });
      stream.on("limit", () => fail(tooLarge(maxMb)));
      stream.pipe(counter);
      stored = storage().put(key, counter, { contentType: "application/octet-stream" });
      stored.catch(() => stream.resume());
    });
    parser.on("field", (name, value, info) => {
      if (name === "file") return fail(badPart(problem("imports.fileAsText")));
      if (!FIELDS.includes(name)) return fail(badPart(problem("imports.unknownField", { name: partName(name), names: fieldList })));
      if (Object.hasOwn(fields, name)) return fail(badPart(problem("imports.fieldTwice", { name: partName(name) })));
      if (info.valueTruncated) return fail(badPart(problem("imports.fieldTooLong", { name: partName(name) })));
      fields[name] = value;
    });
    parser.on("partsLimit", () => fail(new AppError(400, "invalid_input", problem("imports.tooManyParts"))));
    parser.on("filesLimit", () => fail(new AppError(400, "invalid_input", problem("imports.oneFile"))));
    parser.on("error", () => fail(new AppError(400, "invalid_input", problem("imports.malformed"))));
    parser.on("close", () => resolve());
    body.on("error", () => fail(new AppError(400, "invalid_input", problem("imports.interrupted"))));
    body.pipe(parser);
  }).catch(async (error) => {
    await (stored as Promise<number> | null)?.catch(() => 0);
    await storage().delete([key]).catch(() => {});
    throw error;
  });

  if (stored === null || fileName === null) throw new AppError(400, "invalid_input", problem("imports.noFileField"));
  await stored;
  try {
    const sniffed = sniff(head);
    if (sniffed.format === "binary") throw new AppError(400, "invalid_file", sniffed.problem);
    let source: ImportSource;
    if (sniffed.format === "xlsx") source = { format: "xlsx", worksheets: [] };
    else {
      source = { format: "csv", encoding: sniffed.encoding, bom: sniffed.bom, delimiter: "," };
      source.delimiter = detectDelimiter(firstLine(head, source));
    }
    return { fileName, source, size, fields };
  } catch (error) {
    await storage().delete([key]).catch(() => {});
    throw error;
  }
}
