// The JavaScript a browser downloads for a page: every <script src> of the signed-in page's HTML
// (Next's chunks under /_next/static), fetched uncompressed and gzipped here with zlib at level 6
// (what a server's gzip does by default), summed. Inline scripts (the RSC payload) are part of
// the HTML document, reported apart; `nomodule` polyfills are not downloaded by current browsers.
import zlib from "node:zlib";

export type PageWeight = {
  path: string;
  scripts: { src: string; bytes: number; gzip: number }[];
  jsBytes: number;
  jsGzip: number;
  htmlBytes: number;
  htmlGzip: number;
};

const gzip = (b: Buffer) => zlib.gzipSync(b, { level: 6 }).length;

/**
 * The distinct `src` of the document's <script> tags, in order. `nomodule` scripts (Next's
 * polyfills for browsers without ES modules) are left out: a current browser never fetches them.
 */
export function scriptSources(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>/gi)) {
    if (/\snomodule\b/i.test(m[0])) continue;
    const src = m[1]!.replace(/&amp;/g, "&");
    if (!out.includes(src)) out.push(src);
  }
  return out;
}

export async function pageWeight(base: string, pagePath: string, cookie: string): Promise<PageWeight> {
  const page = await fetch(`${base}${pagePath}`, { headers: { cookie, "accept-encoding": "identity" } });
  if (!page.ok) throw new Error(`${pagePath} answered ${page.status}`);
  const html = Buffer.from(await page.arrayBuffer());
  const scripts = [];
  for (const src of scriptSources(html.toString("utf8"))) {
    const r = await fetch(new URL(src, base), { headers: { "accept-encoding": "identity" } });
    if (!r.ok) throw new Error(`${src} answered ${r.status}`);
    const body = Buffer.from(await r.arrayBuffer());
    scripts.push({ src, bytes: body.length, gzip: gzip(body) });
  }
  return {
    path: pagePath,
    scripts,
    jsBytes: scripts.reduce((n, s) => n + s.bytes, 0),
    jsGzip: scripts.reduce((n, s) => n + s.gzip, 0),
    htmlBytes: html.length,
    htmlGzip: gzip(html),
  };
}

export const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
