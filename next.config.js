/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // `next build` checks the app's own sources; `npm test` type-checks everything (tests, scripts).
  typescript: { tsconfigPath: "tsconfig.build.json" },
  // Loaded from node_modules at run time rather than bundled: PGlite and the schema engine
  // read their WebAssembly and data files relative to their own modules.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg-boss", "@prisma/schema-engine-wasm"],
  // `forbidden()` renders app/forbidden.tsx with a 403 status.
  experimental: { authInterrupts: true },
};

export default nextConfig;
