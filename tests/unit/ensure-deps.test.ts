import { describe, expect, it } from "vitest";
import { describeCiRefusal } from "../../scripts/ensure-deps.mjs";

// What `npm ci`'s refusal says on `npm start` / `npm test` (scripts/ensure-deps.mjs). The outputs
// below were captured from npm 11.19 on a scratch package: `lightningcss` 1.33.0 installed, then
// (1) the lock file's entries for lightningcss' binaries of other platforms removed, as a mirror
// that lacks them leaves it; (2) the same, plus `is-number` added to package.json without
// `npm install` (a real drift). npm's usage text that follows is cut.

const HEAD = `npm error code EUSAGE
npm error
npm error \`npm ci\` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with \`npm install\` before continuing.
npm error
`;
const TAIL = `npm error
npm error Clean install a project
npm error
npm error Usage:
npm error npm ci
`;
const BINARIES = ["android-arm64", "darwin-arm64", "darwin-x64", "freebsd-x64", "win32-arm64-msvc", "win32-x64-msvc"].map(
  (p) => `npm error Missing: lightningcss-${p}@1.33.0 from lock file\n`,
);
const OPTIONAL_ONLY = HEAD + BINARIES.join("") + TAIL;
const DRIFT = HEAD + "npm error Missing: is-number@7.0.0 from lock file\n" + BINARIES.join("") + TAIL;

/** The scratch package's lock file, as far as it matters here. */
const LOCK = {
  packages: {
    "": { name: "scratch", dependencies: { lightningcss: "1.33.0" } },
    "node_modules/lightningcss": {
      version: "1.33.0",
      dependencies: { "detect-libc": "^2.0.3" },
      optionalDependencies: Object.fromEntries(
        ["android-arm64", "darwin-arm64", "darwin-x64", "freebsd-x64", "linux-x64-gnu", "win32-arm64-msvc", "win32-x64-msvc"].map((p) => [`lightningcss-${p}`, "1.33.0"]),
      ),
    },
    "node_modules/detect-libc": { version: "2.1.2" },
    "node_modules/chokidar": { version: "3.6.0", optionalDependencies: { fsevents: "~2.3.2" } },
  },
};

describe("npm ci's refusal", () => {
  it("is one line when only other platforms' optional binaries are missing, each counted once", () => {
    const doubled = HEAD + BINARIES.join("") + BINARIES.join("") + TAIL; // npm may print each line twice
    for (const stderr of [OPTIONAL_ONLY, doubled]) {
      const refusal = describeCiRefusal(stderr, LOCK);
      expect(refusal.expected).toBe(true);
      expect(refusal.missing).toHaveLength(6);
      expect(refusal.message).toBe(
        "› npm ci refused: the lock file lacks 6 optional binary packages of other platforms (this registry does not carry them; expected here); installing the same versions with npm install --no-save…",
      );
    }
  });

  it("counts a name once whether npm gives its version or not", () => {
    // As docs/deployment.md quotes it for Next's binaries: the same name with and without its version.
    const next = ["darwin-arm64", "darwin-x64", "win32-x64-msvc"].flatMap((p) => [`@next/swc-${p}@16.4.6`, `@next/swc-${p}@`]);
    const stderr = HEAD + next.map((n) => `npm error Missing: ${n} from lock file\n`).join("") + TAIL;
    const lock = { packages: { "node_modules/next": { optionalDependencies: { "@next/swc-darwin-arm64": "16.4.6", "@next/swc-darwin-x64": "16.4.6", "@next/swc-win32-x64-msvc": "16.4.6" } } } };
    expect(describeCiRefusal(stderr, lock)).toMatchObject({ expected: true, missing: ["@next/swc-darwin-arm64", "@next/swc-darwin-x64", "@next/swc-win32-x64-msvc"] });
    expect(describeCiRefusal(stderr, lock).message).toMatch(/lacks 3 optional binary packages/);
  });

  it("goes by the lock file's optional dependencies, whatever the name", () => {
    const refusal = describeCiRefusal(HEAD + "npm error Missing: fsevents@2.3.3 from lock file\n" + TAIL, LOCK);
    expect(refusal).toMatchObject({ expected: true, missing: ["fsevents"] });
    expect(refusal.message).toMatch(/lacks 1 optional binary package of other platforms/);
  });

  it("takes a platform's binary package as one even when no lock file can be read", () => {
    expect(describeCiRefusal(OPTIONAL_ONLY, null).expected).toBe(true);
    expect(describeCiRefusal(HEAD + "npm error Missing: @esbuild/darwin-arm64@0.25.0 from lock file\n" + TAIL, null).expected).toBe(true);
  });

  it("is a drift when any missing package is neither: npm's error is shown, the culprit named", () => {
    const refusal = describeCiRefusal(DRIFT, LOCK);
    expect(refusal.expected).toBe(false);
    expect(refusal.missing).toHaveLength(7);
    expect(refusal.message).toBe(
      "› package.json and the lock file disagree (is-number is not in the lock file: run npm install and commit package-lock.json); trying npm install --no-save…",
    );
    expect(describeCiRefusal(HEAD + "npm error Missing: @esbuild/linux-x64@0.25.0 from lock file\nnpm error Missing: zod@4.0.0 from lock file\n", LOCK).message).toMatch(
      /\(zod is not in the lock file/,
    );
  });

  it("is a drift when the lock file holds a version package.json no longer accepts", () => {
    const invalid = HEAD + "npm error Invalid: lock file's lightningcss@1.30.0 does not satisfy lightningcss@1.33.0\n" + BINARIES.join("") + TAIL;
    expect(describeCiRefusal(invalid, LOCK)).toMatchObject({ expected: false, message: expect.stringMatching(/^› package.json and the lock file disagree/) });
  });

  it("is shown in full for any other failure", () => {
    const refusal = describeCiRefusal("npm error code ENOTFOUND\nnpm error network request to https://registry.npmjs.org/zod failed\n", LOCK);
    expect(refusal).toEqual({ expected: false, missing: [], message: "› npm ci failed (above); trying npm install --no-save…" });
  });
});
