import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { actionsKeyNotice, actionsKeyProblem, builtActionsKey } from "@/lib/server/actions-key";
import { BUILD_INPUTS, buildId } from "../../scripts/build-id.mjs";

// Instances built separately must agree on the build id (next.config.js generateBuildId) and on
// the server actions' key: two checkouts of the same sources, in other folders at other times,
// give one id; any edit gives another. tests/integration/many-machines.test.ts checks that the
// build the HTTP suites serve carries this id.

const made: string[] = [];
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A copy of the project's build inputs (not node_modules), with fresh file times. */
function checkout(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "build-id-"));
  made.push(dir);
  for (const rel of ["app", "components", "lib", "next.config.js", "package.json", "package-lock.json", "prisma/schema.prisma", "scripts/build-id.mjs"]) {
    fs.cpSync(rel, path.join(dir, rel), { recursive: true, preserveTimestamps: false });
  }
  return dir;
}

describe("the build id", () => {
  it("is the same for the same sources wherever and whenever they are checked out", () => {
    const here = buildId(process.cwd(), {});
    expect(here).toMatch(/^src-[0-9a-f]{20}$/);
    const a = checkout();
    const b = checkout();
    const later = new Date(Date.now() + 3600_000);
    fs.utimesSync(path.join(b, "lib/config.ts"), later, later);
    expect(buildId(a, {})).toBe(buildId(b, {}));
    // Generated code (from the hashed schema) and files outside the inputs do not count.
    fs.mkdirSync(path.join(b, "lib/generated"), { recursive: true });
    fs.writeFileSync(path.join(b, "lib/generated/extra.ts"), "export {};\n");
    fs.writeFileSync(path.join(b, "notes.txt"), "not a build input");
    expect(buildId(b, {})).toBe(buildId(a, {}));
  });

  it("changes with any edit of a build input", () => {
    const a = checkout();
    const before = buildId(a, {});
    fs.appendFileSync(path.join(a, "lib/config.ts"), "\n// one more line\n");
    expect(buildId(a, {})).not.toBe(before);
    const b = checkout();
    fs.renameSync(path.join(b, "lib/format.ts"), path.join(b, "lib/format2.ts"));
    expect(buildId(b, {})).not.toBe(before);
  });

  it("covers every folder the sources import through the @/ alias", () => {
    // A second machine builds from these inputs alone (tests/helpers/separate-build.ts): a folder
    // imported but not listed builds here and fails there.
    const imported = new Set<string>();
    const walk = (rel: string) => {
      if (rel === "lib/generated") return;
      if (fs.statSync(rel).isDirectory()) return fs.readdirSync(rel).forEach((entry) => walk(`${rel}/${entry}`));
      if (!/\.(ts|tsx|mjs|js)$/.test(rel)) return;
      for (const match of fs.readFileSync(rel, "utf8").matchAll(/["']@\/([^/"']+)/g)) imported.add(match[1]!.replace(/\.[a-z]+$/, ""));
    };
    for (const input of BUILD_INPUTS) if (fs.existsSync(input)) walk(input);
    expect(imported.has("messages")).toBe(true);
    const listed = new Set(BUILD_INPUTS.map((input) => input.split("/")[0]!.replace(/\.[a-z]+$/, "")));
    expect([...imported].filter((top) => !listed.has(top))).toEqual([]);
  });

  it("takes BUILD_ID when set, and refuses one that cannot name a folder", () => {
    expect(buildId(process.cwd(), { BUILD_ID: " release-2027.01_3 " })).toBe("release-2027.01_3");
    for (const bad of ["../x", "a/b", "x".repeat(65), "with space"]) expect(() => buildId(process.cwd(), { BUILD_ID: bad })).toThrow(/BUILD_ID must be/);
  });
});

describe("the server actions' key", () => {
  const KEY = Buffer.alloc(32, 7).toString("base64");
  /** The settings server.ts reads (lib/config.ts) from this environment. */
  const settings = (env: Record<string, string>) => parseConfig({ NODE_ENV: "test", ...env });
  const app = (key: string | null) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "actions-key-"));
    made.push(dir);
    fs.mkdirSync(path.join(dir, ".next/server"), { recursive: true });
    fs.writeFileSync(path.join(dir, ".next/server/server-reference-manifest.json"), JSON.stringify({ node: {}, edge: {}, ...(key ? { encryptionKey: key } : {}) }));
    return dir;
  };

  it("refuses to serve a build made with another key than the one set", () => {
    expect(builtActionsKey(app(KEY))).toBe(KEY);
    expect(actionsKeyProblem(app(KEY), settings({ NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: KEY }))).toBeNull();
    expect(actionsKeyProblem(app(KEY), settings({}))).toBeNull(); // the build's own key is used
    expect(actionsKeyProblem(app(Buffer.alloc(32, 8).toString("base64")), settings({ NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: KEY }))).toMatch(/not the key this build was made with/);
    expect(actionsKeyProblem(fs.mkdtempSync(path.join(os.tmpdir(), "no-build-")), settings({ NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: KEY }))).toBeNull();
  });

  it("notes a bucket-backed instance without a shared key", () => {
    expect(actionsKeyNotice(settings({ STORAGE_URL: "s3://bucket/console" }))).toMatch(/NEXT_SERVER_ACTIONS_ENCRYPTION_KEY is not set/);
    expect(actionsKeyNotice(settings({ STORAGE_URL: "s3://bucket/console", NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: KEY }))).toBeNull();
    expect(actionsKeyNotice(settings({}))).toBeNull();
  });
});
