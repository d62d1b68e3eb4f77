import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { localStore } from "@/lib/storage/local";
import { storageContract } from "../helpers/storage-contract";

// The local folder store: the storage contract, plus what only a folder has (its files' modes,
// the temporary files a killed writer leaves behind).

const root = fs.mkdtempSync(path.join(os.tmpdir(), "storage-local-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("local file store", () => {
  storageContract(() => localStore(root));

  it("keeps files 0600 in folders 0700", async () => {
    const store = localStore(root);
    await store.put("exports/modes.csv", ["x"]);
    expect(fs.statSync(path.join(root, "exports")).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(root, "exports", "modes.csv")).mode & 0o777).toBe(0o600);
  });

  it("sweeps a killed writer's old temporary files, not recent ones nor other folders' files", async () => {
    const store = localStore(root);
    fs.mkdirSync(path.join(root, "exports"), { recursive: true });
    fs.mkdirSync(path.join(root, "pglite"), { recursive: true });
    const old = path.join(root, "exports", ".killed.csv.123.0badc0de.tmp");
    const fresh = path.join(root, "exports", ".writing.csv.124.0badc0de.tmp");
    const foreign = path.join(root, "pglite", ".not-ours.123.0badc0de.tmp");
    for (const f of [old, fresh, foreign]) fs.writeFileSync(f, "x");
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const f of [old, foreign]) fs.utimesSync(f, hourAgo, hourAgo);
    expect(await store.sweepIncomplete(60_000)).toBe(1);
    expect([fs.existsSync(old), fs.existsSync(fresh), fs.existsSync(foreign)]).toEqual([false, true, true]);
    const listed = [];
    for await (const entry of store.list("exports/")) listed.push(entry.key);
    expect(listed.some((k) => k.includes("writing"))).toBe(false);
  });
});
