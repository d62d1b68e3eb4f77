import fs from "node:fs";
import path from "node:path";
import type { Config } from "@/lib/config";

// A page's actions may post to any instance, so every instance must run a build made with one
// actions key, and run with that key (docs/decisions/0012-many-machines.md, docs/deployment.md).

/** The key `next build` used, from the build's manifest (null: no build, or none recorded). */
export function builtActionsKey(appDir: string): string | null {
  const file = path.join(appDir, ".next", "server", "server-reference-manifest.json");
  if (!fs.existsSync(file)) return null;
  const key = (JSON.parse(fs.readFileSync(file, "utf8")) as { encryptionKey?: unknown }).encryptionKey;
  return typeof key === "string" && key !== "" ? key : null;
}

/** Why this instance must not serve this build with these settings, or null. */
export function actionsKeyProblem(appDir: string, settings: Pick<Config, "NEXT_SERVER_ACTIONS_ENCRYPTION_KEY">): string | null {
  const key = settings.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY;
  const built = builtActionsKey(appDir);
  if (key === undefined || built === null || built === key) return null;
  return (
    "NEXT_SERVER_ACTIONS_ENCRYPTION_KEY is not the key this build was made with: the pages of other instances " +
    "would post server actions this one cannot read. Build again with the same variable set (`npm run build`), " +
    "or unset it here to use the build's own key."
  );
}

/** A note for the log when nothing ties several instances' server actions together. */
export function actionsKeyNotice(settings: Pick<Config, "NEXT_SERVER_ACTIONS_ENCRYPTION_KEY" | "STORAGE_URL">): string | null {
  if (settings.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY !== undefined || settings.STORAGE_URL === undefined) return null;
  return (
    "NEXT_SERVER_ACTIONS_ENCRYPTION_KEY is not set: fine when every instance serves a copy of one build; " +
    "instances that each run `npm run build` need the same key at build and at start (see docs/deployment.md, Running on many machines)."
  );
}
