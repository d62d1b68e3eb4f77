import { AppError } from "@/lib/errors";

// Bodies are limited while they stream, so memory never holds more than the limit whatever a client sends.

const tooLarge = (maxBytes: number) =>
  new AppError(413, "too_large", `The body is too large (at most ${Math.floor(maxBytes / 1024)} KB).`);

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
    throw new AppError(400, "invalid_encoding", "Send the body as UTF-8 text.");
  }
}

/**
 * The first key that one object of this JSON text names twice, or null. JSON.parse keeps the
 * last of them silently; a body that says two things is refused instead, as a query parameter
 * or a form field given twice is. Call it on text JSON.parse has read.
 */
export function repeatedJsonKey(text: string): string | null {
  const open: (Set<string> | null)[] = []; // each object's keys so far; null for an array
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const keys = open.at(-1);
      if (keys) {
        // A string in an object is a key when a colon follows it.
        let next = end + 1;
        while (text[next] === " " || text[next] === "\t" || text[next] === "\n" || text[next] === "\r") next++;
        if (text[next] === ":") {
          const key = JSON.parse(text.slice(i, end + 1)) as string;
          if (keys.has(key)) return key;
          keys.add(key);
        }
      }
      i = end;
    } else if (c === "{") open.push(new Set());
    else if (c === "[") open.push(null);
    else if (c === "}" || c === "]") open.pop();
  }
  return null;
}
