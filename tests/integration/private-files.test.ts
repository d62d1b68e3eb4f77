import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openPGlite, pgliteExtensions } from "@/lib/db/pglite";
import { writeCsvFile } from "@/lib/export/files";
import { newJobId } from "@/lib/jobs/ids";
import { ensurePrivateDir } from "@/lib/security/private-files";

// Issue 19, point 4: data at rest is private. The embedded database's folder was created 0755
// and PGlite wrote its files 0666 (the first WAL segment holds users' emails and password
// hashes). Folders are 0700 and files 0600, new and existing ones alike.

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "console-private-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** Every folder and file under `dir` (itself included) whose mode lets another account in. */
function shared(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const stat = fs.lstatSync(p);
    const expected = stat.isDirectory() ? 0o700 : 0o600;
    if ((stat.mode & 0o777) !== expected) out.push(`${path.relative(tmp, p)} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return out;
}

async function fillAndClose(db: PGlite) {
  // New tables, enough rows for a new WAL segment, a checkpoint: files made after opening.
  await db.exec("CREATE TABLE secrets (email text, hash text)");
  await db.exec("INSERT INTO secrets SELECT 'user' || n || '@example.com', repeat('x', 200) FROM generate_series(1, 100000) n");
  await db.exec("CHECKPOINT");
  await db.close();
}

describe("embedded database files", () => {
  let release: (() => void) | null = null;
  afterEach(() => release?.());

  it("are created 0700 (folders, the missing parent included) and 0600 (files), also the ones written later", async () => {
    const parent = path.join(tmp, "new-data");
    const dir = path.join(parent, "pglite");
    const db = await openPGlite(dir);
    release = db.release;
    expect(mode(dir)).toBe(0o700);
    expect(mode(parent)).toBe(0o700);
    expect(mode(`${dir}.lock`)).toBe(0o600);
    await fillAndClose(db);
    expect(fs.readdirSync(path.join(dir, "pg_wal")).length).toBeGreaterThan(0);
    expect(shared(dir)).toEqual([]);
  });

  it("leave the folder they are made in as it is (it may be shared, as /tmp is)", async () => {
    const shared = path.join(tmp, "shared");
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o755);
    const db = await openPGlite(path.join(shared, "pglite"));
    release = db.release;
    expect(mode(path.join(shared, "pglite"))).toBe(0o700);
    expect(mode(shared)).toBe(0o755);
    await fillAndClose(db);
  });

  it("made world-readable by an older version are tightened when opened", async () => {
    const dir = path.join(tmp, "old-data", "pglite");
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    await (await PGlite.create(dir, { extensions: pgliteExtensions })).close(); // as before: 0755 folders, 0666 files
    expect(shared(dir).length).toBeGreaterThan(900);
    const db = await openPGlite(dir);
    release = db.release;
    expect(shared(dir)).toEqual([]);
    await fillAndClose(db);
    expect(shared(dir)).toEqual([]);
  });
});

describe("the data folder and the export folder", () => {
  it("are 0700, an existing .data/ tightened, and export files 0600", async () => {
    const root = path.join(tmp, "dot-data");
    fs.mkdirSync(root, { mode: 0o755 });
    fs.chmodSync(root, 0o755);
    const exports = path.join(root, "exports");
    ensurePrivateDir(exports, root);
    expect([mode(root), mode(exports)]).toEqual([0o700, 0o700]);

    const previous = process.env.STORAGE_DIR;
    process.env.STORAGE_DIR = path.join(tmp, "exports-made-by-the-worker");
    fs.mkdirSync(process.env.STORAGE_DIR, { mode: 0o755 });
    fs.chmodSync(process.env.STORAGE_DIR, 0o755);
    try {
      const id = newJobId();
      async function* batches() {
        yield [["1", "Ann"]];
      }
      await writeCsvFile(id, batches(), async () => {});
      expect(shared(process.env.STORAGE_DIR)).toEqual([]);
      expect(fs.existsSync(path.join(process.env.STORAGE_DIR, "exports", `${id}.csv`))).toBe(true);
    } finally {
      if (previous === undefined) delete process.env.STORAGE_DIR;
      else process.env.STORAGE_DIR = previous;
    }
  });
});
