import { describe, expect, it } from "vitest";
import { scopeSlot } from "@/lib/request-scope";

describe("the request's scope", () => {
  const a = scopeSlot<string>("test.a");
  const b = scopeSlot<number>("test.b");

  it("sets one slot and keeps the others, for everything awaited inside", async () => {
    expect(a.get()).toBeUndefined();
    await a.run("outer", async () => {
      await b.run(7, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        expect([a.get(), b.get()]).toEqual(["outer", 7]);
        await a.run("inner", async () => expect([a.get(), b.get()]).toEqual(["inner", 7]));
        expect(a.get()).toBe("outer");
      });
      expect(b.get()).toBeUndefined();
    });
    expect(a.get()).toBeUndefined();
  });

  it("unsets a slot for what runs outside it, leaving the other", () => {
    a.run("set", () =>
      b.run(3, () => {
        expect(b.run(undefined, () => [a.get(), b.get()])).toEqual(["set", undefined]);
        expect(b.get()).toBe(3);
      }),
    );
  });

  it("keeps concurrent scopes apart", async () => {
    const seen = await Promise.all(
      ["x", "y", "z"].map((value, i) =>
        a.run(value, async () => {
          await new Promise((resolve) => setTimeout(resolve, 3 - i));
          return a.get();
        }),
      ),
    );
    expect(seen).toEqual(["x", "y", "z"]);
  });
});
