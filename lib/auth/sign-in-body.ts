import { AppError } from "@/lib/errors";
import { readLimitedText } from "@/lib/http/body";
import { problem } from "@/lib/i18n/problem";

// A POST to next-auth, read once by the console and handed on as exactly this reading, so nothing
// downstream can read the request another way (the first of two `email` fields here, the last there).

const FIELDS = new Set(["email", "password", "code", "csrfToken", "callbackUrl", "json", "redirect"]);
/** The largest body of a POST to next-auth's routes (server.ts refuses a longer declared one before Next buffers it). */
export const SIGN_IN_BODY_LIMIT = 8 * 1024;

const invalid = (message: string) => new AppError(400, "invalid_input", message);

function checkField(seen: Set<string>, key: string, value: unknown) {
  if (!FIELDS.has(key)) throw invalid(problem("auth.unknownField", { field: key.slice(0, 40) }));
  if (seen.has(key)) throw invalid(problem("auth.fieldGivenTwice", { field: key }));
  if (typeof value !== "string") throw invalid(problem("auth.fieldNotText", { field: key }));
  seen.add(key);
}

/** `{"a":"…","b":"…"}` with string values only, and no key twice (JSON.parse would keep the last). */
function parseJsonObject(text: string): URLSearchParams {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(problem("http.invalidJson"));
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalid(problem("auth.oneJsonObject"));
  const entries = Object.entries(value);
  const out = new URLSearchParams();
  const seen = new Set<string>();
  for (const [key, field] of entries) {
    checkField(seen, key, field);
    out.append(key, field as string);
  }
  // A key written twice shows up as more string literals than the parsed object has entries.
  const literals = text.match(/"(?:[^"\\]|\\.)*"/g)?.length ?? 0;
  if (literals !== entries.length * 2) throw invalid(problem("auth.aFieldGivenTwice"));
  return out;
}

function parseForm(text: string): URLSearchParams {
  const out = new URLSearchParams();
  const seen = new Set<string>();
  for (const [key, value] of new URLSearchParams(text)) {
    checkField(seen, key, value);
    out.append(key, value);
  }
  return out;
}

/** The fields of a sign-in or sign-out body; 400, 413 or 415 for anything else. */
export async function readSignInBody(request: Request): Promise<URLSearchParams> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded" && type !== "application/json") {
    throw new AppError(415, "unsupported_media_type", problem("auth.sendFormEncoded"));
  }
  const text = await readLimitedText(request, SIGN_IN_BODY_LIMIT);
  return type === "application/json" ? parseJsonObject(text) : parseForm(text);
}
