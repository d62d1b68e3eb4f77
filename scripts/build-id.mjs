// The build id of `next build` (next.config.js `generateBuildId`): the same for every build of the
// same sources, so that instances built separately (each machine runs `npm run build`) agree on
// it. Next.js names its static folder and checks the pages a browser loads against it: instances
// with different ids behind one load balancer make browsers reload pages and miss assets.
//
// BUILD_ID, when set, is used as it is (a release tag, a commit). Otherwise the id is a hash of
// the contents (not the times) of everything that goes into the build, under their paths
// relative to the project: a checkout anywhere, at any time, gives the same id; any edit another.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** What goes into the build (scripts/bench/build.ts copies the same list). */
export const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "messages",
  "public",
  "instrumentation.ts",
  "proxy.ts",
  "server.ts",
  "middleware.ts",
  "next.config.js",
  "scripts/build-id.mjs",
  "postcss.config.mjs",
  "package.json",
  "package-lock.json",
  "prisma/schema.prisma",
  "tsconfig.json",
  "tsconfig.build.json",
];

/** Made from prisma/schema.prisma (hashed itself), and git-ignored: not a source. */
const GENERATED = new Set(["lib/generated"]);

/** What BUILD_ID may be (it names a folder of the build); tools/env.ts checks it with this too. */
export const BUILD_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** The hex SHA-256 of the inputs' relative paths and contents, in a fixed order. */
export function sourceDigest(root, inputs = BUILD_INPUTS) {
  const hash = crypto.createHash("sha256");
  const walk = (rel) => {
    if (GENERATED.has(rel)) return;
    const full = path.join(root, rel);
    if (!fs.existsSync(full)) return;
    if (fs.statSync(full).isDirectory()) {
      for (const entry of fs.readdirSync(full).sort()) walk(`${rel}/${entry}`);
      return;
    }
    const content = fs.readFileSync(full);
    hash.update(`${rel}\0${content.length}\0`);
    hash.update(content);
  };
  for (const rel of inputs) walk(rel);
  return hash.digest("hex");
}

/** BUILD_ID when set (checked), else `src-` and 20 hex digits of the sources' digest. */
export function buildId(root, env = process.env) {
  const given = (env.BUILD_ID ?? "").trim();
  if (given !== "") {
    if (!BUILD_ID_PATTERN.test(given)) throw new Error(`BUILD_ID must be 1 to 64 letters, digits, dots, underscores or hyphens (it names a folder of the build); got ${JSON.stringify(given.slice(0, 80))}.`);
    return given;
  }
  return `src-${sourceDigest(root).slice(0, 20)}`;
}
