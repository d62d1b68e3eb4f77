import { Readable } from "node:stream";
import { expect, it } from "vitest";
import type { FileStore } from "@/lib/storage";

// What every file store promises (lib/storage/types.ts), as tests any backend runs:
// `storageContract(() => store)` inside a describe block.

async function text(store: FileStore, key: string): Promise<string | null> {
  const object = await store.get(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Buffer));
  const body = Buffer.concat(chunks).toString("utf8");
  expect(object.size).toBe(Buffer.byteLength(body));
  return body;
}

export function storageContract(make: () => FileStore) {
  it("writes an object from a stream of chunks and reads it back whole, with its size", async () => {
    const store = make();
    async function* chunks() {
      for (let i = 0; i < 200; i++) yield `line ${i} ${"é".repeat(50)}\n`;
    }
    const written = await store.put("exports/contract-a.csv", chunks());
    const expected = Array.from({ length: 200 }, (_, i) => `line ${i} ${"é".repeat(50)}\n`).join("");
    expect(written).toBe(Buffer.byteLength(expected));
    expect(await text(store, "exports/contract-a.csv")).toBe(expected);
    await store.put("exports/contract-a.csv", Readable.from([Buffer.from("replaced")]));
    expect(await text(store, "exports/contract-a.csv")).toBe("replaced");
  });

  it("shows nothing until the write is complete, and nothing at all when the writer fails", async () => {
    const store = make();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* slow() {
      yield "first half,";
      await gate;
      yield "second half";
    }
    const writing = store.put("exports/contract-b.csv", slow());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await store.get("exports/contract-b.csv")).toBeNull();
    release();
    await writing;
    expect(await text(store, "exports/contract-b.csv")).toBe("first half,second half");

    async function* broken() {
      yield "some rows,";
      throw new Error("the database went away");
    }
    await expect(store.put("exports/contract-c.csv", broken())).rejects.toThrow("the database went away");
    expect(await store.get("exports/contract-c.csv")).toBeNull();
    const controller = new AbortController();
    async function* endless() {
      for (;;) {
        yield "x".repeat(1024);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
    setTimeout(() => controller.abort(), 30);
    await expect(store.put("exports/contract-d.csv", endless(), { signal: controller.signal })).rejects.toThrow();
    expect(await store.get("exports/contract-d.csv")).toBeNull();
  });

  it("lists complete objects under a prefix and deletes them (missing ones are fine)", async () => {
    const store = make();
    await store.put("exports/contract-e.csv", ["e"]);
    await store.put("exports/contract-f.csv", ["ff"]);
    const listed = [];
    for await (const entry of store.list("exports/contract-")) listed.push(entry);
    expect(listed.map((e) => e.key).sort()).toEqual(expect.arrayContaining(["exports/contract-e.csv", "exports/contract-f.csv"]));
    expect(listed.find((e) => e.key === "exports/contract-f.csv")).toMatchObject({ size: 2, modifiedAt: expect.any(Date) });
    await store.delete(["exports/contract-e.csv", "exports/contract-f.csv", "exports/never-there.csv"]);
    expect(await store.get("exports/contract-e.csv")).toBeNull();
    expect(await store.get("exports/contract-f.csv")).toBeNull();
  });

  it("refuses keys that could leave its space", async () => {
    const store = make();
    for (const key of ["../x", "exports/../../x", "/etc/passwd", "exports/.hidden", "exports//x", "a\\b", "", "exports/x\n"]) {
      await expect(store.get(key), key).rejects.toThrow(/Not a storage key/);
    }
  });

  it("answers its health check", async () => {
    await expect(make().check()).resolves.toBeUndefined();
  });
}
