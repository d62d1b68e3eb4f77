import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "./next-server";

// What the production build and the app/ folder hold, for the HTTP suites that must cover every
// page, route and server action without a list kept by hand.

export type AppEntry = {
  /** The file under app/ (page.tsx or route.ts). */
  file: string;
  kind: "page" | "route";
  /** Its URL with each dynamic segment as `[name]` or `[...name]`. */
  pattern: string;
};

/** Every page and route handler of app/, with its URL pattern (route groups dropped). */
export function appEntries(appDir = path.join(projectRoot, "app")): AppEntry[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  return walk(appDir)
    .map((full) => path.relative(appDir, full))
    .filter((file) => /(^|\/)(page\.tsx|route\.ts)$/.test(file))
    .map((file) => {
      const dirs = path.dirname(file).split(path.sep).filter((d) => d !== "." && !/^\(.*\)$/.test(d));
      return { file, kind: file.endsWith("page.tsx") ? "page" : "route", pattern: `/${dirs.join("/")}` };
    });
}

/** The build's server actions (its manifest), each with the path of a page that serves it. */
export function builtServerActions(appDir = projectRoot): { id: string; name: string; page: string }[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(appDir, ".next/server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName?: string; workers: Record<string, unknown> }>;
  };
  return Object.entries(manifest.node).map(([id, entry]) => {
    const worker = Object.keys(entry.workers).find((w) => w.startsWith("app/") && w.endsWith("/page")) ?? "app/page";
    const page = worker.replace(/^app/, "").replace(/\/page$/, "").replace(/\/\([^)]+\)/g, "").replace(/\[[^\]]+\]/g, "1") || "/";
    return { id, name: entry.exportedName ?? id, page };
  });
}
