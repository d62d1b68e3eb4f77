import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_RETURN_PATH, safeReturnPath } from "@/lib/http/return-to";

// Every return address (login page, login form, next-auth's redirect callback) is decided by
// safeReturnPath. What it returns, resolved by a browser against the console, stays on the
// console, and can always be sent in a Location header.

const ORIGIN = "https://console.example.com";

/** What a browser does with a Location header: resolve it against the page's URL. */
const resolved = (location: string) => new URL(location, `${ORIGIN}/login`);
/** What fetch's Headers accepts as a header value (Node's undici and the browsers agree). */
const legalHeader = (value: string) => {
  try {
    new Headers({ location: value });
    return /^[\x21-\x7e]+$/.test(value);
  } catch {
    return false;
  }
};

describe("safeReturnPath", () => {
  it("keeps the console's own paths, with their query and hash", () => {
    expect(safeReturnPath("/subscribers?page=2&email=a%40b.c#top", ORIGIN)).toBe("/subscribers?page=2&email=a%40b.c#top");
    expect(safeReturnPath("/branches/3/edit", ORIGIN)).toBe("/branches/3/edit");
    expect(safeReturnPath(`${ORIGIN}/audit?page=3`, ORIGIN)).toBe("/audit?page=3");
    expect(safeReturnPath("subscribers", ORIGIN)).toBe("/subscribers");
  });

  it.each([
    "/\t/evil.example",
    "/\t\\evil.example",
    "\t//evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\\\\evil.example",
    "/\\evil.example",
    "\\/evil.example",
    " //evil.example",
    "//evil.example/subscribers",
    "///evil.example",
    "https://evil.example/",
    "http://console.example.com/", // another scheme is another origin
    "https://console.example.com.evil.example/",
    "https://console.example.com@evil.example/",
    "//console.example.com@evil.example",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "/%09/evil.example",
  ])("never leaves the console: %j", (value) => {
    const out = safeReturnPath(value, ORIGIN);
    expect(resolved(out).origin).toBe(ORIGIN);
    expect(legalHeader(out)).toBe(true);
  });

  it("collapses a path that would start with // into one slash", () => {
    expect(safeReturnPath("/.//evil.example", ORIGIN)).toBe("/evil.example");
    expect(safeReturnPath("/a/..//evil.example", ORIGIN)).toBe("/evil.example");
    expect(resolved(safeReturnPath("/%2e//evil.example", ORIGIN)).origin).toBe(ORIGIN);
  });

  it.each(["\n", "\r", "\u000b", "\u0000", "\u007f", "\u00ff", "\u2028", "\u0100", "😀", "é", " ", "\"", "<", ">", "`"])(
    "answers a legal header value for %j inside the path, query and hash",
    (c) => {
      for (const value of [`/sub${c}scribers`, `/subscribers?q=${c}`, `/subscribers#${c}`, `/${c}`]) {
        const out = safeReturnPath(value, ORIGIN);
        expect(legalHeader(out), `${JSON.stringify(value)} → ${JSON.stringify(out)}`).toBe(true);
        expect(resolved(out).origin).toBe(ORIGIN);
      }
    },
  );

  it("falls back for what is not an address", () => {
    for (const value of [undefined, null, 42, ["/a", "/b"], "", "   ", "x".repeat(5000)]) {
      expect(safeReturnPath(value, ORIGIN)).toBe(DEFAULT_RETURN_PATH);
    }
    expect(safeReturnPath("https://evil.example", ORIGIN, "/login")).toBe("/login");
    // Percent-escapes that are not UTF-8: Next decodes a Location header, and these would throw there.
    for (const value of ["/%FF", "%2F%FF", "/subscribers?q=%0A#%FF", "/%E2%80"]) {
      expect(safeReturnPath(value, ORIGIN), value).toBe(DEFAULT_RETURN_PATH);
    }
  });

  it("property: whatever the input, the result stays on the console's origin and is a legal header value", () => {
    const pieces = fc.constantFrom(
      "/", "\\", "\t", "\r", "\n", " ", "%09", "%0a", "%0d", "%2f", "%5c", "%2e", ".", "..", "@", ":", "?", "#",
      "evil.example", "console.example.com", "https:", "http:", "//", "javascript:", "\u00a0", "\u2028", "\u0100", "😀", "é",
      "\u0000", "\u007f", "\u00ff", "a", "subscribers", "%", "%ff", "&", "=",
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }).map((p) => p.join("")), fc.string({ maxLength: 20 }), (built, random) => {
        for (const value of [built, random, `/${built}`, `${built}${random}`]) {
          const out = safeReturnPath(value, ORIGIN);
          expect(out.startsWith("/")).toBe(true);
          expect(out.startsWith("//")).toBe(false);
          expect(resolved(out).origin).toBe(ORIGIN);
          expect(legalHeader(out)).toBe(true);
          expect(() => decodeURIComponent(out)).not.toThrow();
        }
      }),
      { numRuns: 3000 },
    );
  });
});
