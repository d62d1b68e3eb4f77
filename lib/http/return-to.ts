// The one decision about where to send a browser back to: resolved as a browser resolves a
// Location header, kept only on our origin, re-serialised so it is always a legal header value.

import { config } from "@/lib/config";

export const DEFAULT_RETURN_PATH = "/subscribers";

/** Longer return addresses are not worth keeping (and a header has limits). */
const MAX_LENGTH = 2048;

const LOCAL_ORIGIN = "http://localhost";

export const consoleOrigin = (): string => config().NEXTAUTH_URL || LOCAL_ORIGIN;

/** Where to send the browser: a path (with query and hash) on `origin`, or `fallback`. */
export function safeReturnPath(value: unknown, origin: string = consoleOrigin(), fallback: string = DEFAULT_RETURN_PATH): string {
  if (typeof value !== "string" || value.trim() === "" || value.length > MAX_LENGTH) return fallback;
  let base: URL;
  try {
    base = new URL(origin);
  } catch {
    base = new URL(LOCAL_ORIGIN);
  }
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base.origin) return fallback;
  // A path that starts with `//` (as `/.//evil.example` becomes) would name a host on its own.
  const path = `${url.pathname.replace(/^\/+/, "/")}${url.search}${url.hash}`;
  // Belt and braces: printable ASCII only, and it still resolves to this origin.
  if (!/^\/[\x21-\x7e]*$/.test(path) || new URL(path, base).origin !== base.origin) return fallback;
  // Next decodes a redirect's Location: a percent-escape that is not UTF-8 (`/%FF`) would answer 500.
  try {
    decodeURIComponent(path);
  } catch {
    return fallback;
  }
  return path;
}
