import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";

// Bodies are limited while they stream, so memory never holds more than the limit whatever a client sends.

const tooLarge = (maxBytes: number) =>
  new AppError(413, "too_large", problem("http.tooLarge", { kb: String(Math.floor(maxBytes / 1024)) }));

/** The body's bytes, at most `maxBytes`; 413 beyond. */
async function readLimitedBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && (!/^\d+$/.test(declared.trim()) || Number(declared) > maxBytes)) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** The body as UTF-8 text, at most `maxBytes`; 400 when it is not UTF-8. */
export async function readLimitedText(request: Request, maxBytes: number): Promise<string> {
  const bytes = await readLimitedBody(request, maxBytes);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new AppError(400, "invalid_encoding", problem("http.invalidEncoding"));
  }
}
