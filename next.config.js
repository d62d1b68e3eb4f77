import path from "node:path";
import createNextIntlPlugin from "next-intl/plugin";
import { buildId } from "./scripts/build-id.mjs";

const root = path.dirname(new URL(import.meta.url).pathname);

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // COMPRESS (lib/config.ts), handed over by server.ts: off, the reverse proxy compresses (docs/decisions/0039-compression.md).
  compress: process.env.CONSOLE_COMPRESS === "1",
  // The same id for every build of the same sources (scripts/build-id.mjs), so that instances
  // built on separate machines serve one app behind a load balancer.
  generateBuildId: async () => buildId(root),
  // Skew protection: a page loaded from another build reloads itself on its next navigation
  // instead of asking this one for scripts it does not have (docs/deployment.md, Upgrading).
  // The build id; server.ts names the served build's in NEXT_DEPLOYMENT_ID, whatever the sources
  // beside it say now.
  deploymentId: process.env.NEXT_DEPLOYMENT_ID || buildId(root),
  // `next build` checks the app's own sources; `npm test` type-checks everything (tests, scripts).
  typescript: { tsconfigPath: "tsconfig.build.json" },
  // Loaded from node_modules at run time rather than bundled: PGlite reads its WebAssembly and
  // data files relative to its own module (and its Prisma adapter must share that copy); pg-boss
  // is plain CommonJS with dynamic requires. Only packages the app imports belong here: the
  // migration runner's schema engine is tooling (tools/migrate/), never loaded by the app.
  // The AWS SDK (the S3 file store, loaded only when STORAGE_URL names a bucket) likewise: Next
  // keeps @aws-sdk/client-s3 external already, and lib-storage must use that same copy.
  // prom-client likewise, so server.ts and the app count into one copy's registry (lib/telemetry/metrics.ts);
  // Next keeps pino and pino-pretty external already.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg-boss", "@aws-sdk/client-s3", "@aws-sdk/lib-storage", "prom-client"],
  // The console shows no `next/image`: no optimizer, so /_next/image answers the 404 page instead
  // of fetching (and failing on) whatever `url` a caller names.
  images: { unoptimized: true },
  experimental: {
    // `forbidden()` renders app/forbidden.tsx with a 403 status.
    authInterrupts: true,
    // What Next reads of a body into memory for the proxy (default 10 MB), for every request but
    // a GET or HEAD to a path behind it: server.ts refuses first anything longer that a page,
    // action or next-auth route could take (lib/server/incoming.ts), so this is only a backstop,
    // at a server action's own limit.
    proxyClientMaxBodySize: "1mb",
  },
  // Security headers are lib/security/headers.ts's alone, set by server.ts and proxy.ts.
};

// next-intl reads each request's language and catalogue from lib/i18n/request.ts (docs/decisions/0048-languages.md).
// Catalogues are compiled at build time (docs/decisions/0050-precompiled-messages.md): pages format
// them without parsing ICU on each request, and the browser gets no ICU parser.
export default createNextIntlPlugin({
  requestConfig: "./lib/i18n/request.ts",
  experimental: { messages: { path: "./messages", format: "json", precompile: true } },
})(nextConfig);
