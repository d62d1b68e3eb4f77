import { describe, expect, it } from "vitest";
import { ClientGoneError } from "@/lib/db/scope";
import { TooManyRequestsError, UserLimit } from "@/lib/load/user-limit";

// Issue 19: one user's 24 simultaneous list requests took every connection of the pool. Each
// user now runs a few at a time; a few more wait in order; the rest are refused at once.

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};
const tick = () => new Promise((r) => setTimeout(r, 0));

describe("the per-user limit of heavy requests", () => {
  it("runs two at once, queues the next in order, refuses the rest with a retry time", async () => {
    const limit = new UserLimit({ running: 2, waiting: 2, waitMs: 10_000 });
    const gates = Array.from({ length: 6 }, deferred);
    const started: number[] = [];
    const results = gates.map((g, i) =>
      limit.run(7, async () => {
        started.push(i);
        await g.promise;
        return i;
      }).then((v) => ({ ok: v }), (e: unknown) => ({ error: e })),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(limit.usage(7)).toEqual({ running: 2, waiting: 2 });
    const refused = await Promise.all(results.slice(4));
    for (const r of refused) {
      expect((r as { error: unknown }).error).toBeInstanceOf(TooManyRequestsError);
      expect((r as { error: TooManyRequestsError }).error).toMatchObject({ status: 429, code: "too_many_requests", retryAfter: 2 });
    }
    // Another user is not held back by this one.
    await expect(limit.run(8, async () => "other")).resolves.toBe("other");
    gates[1]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve();
    gates[2]!.resolve();
    gates[3]!.resolve();
    expect(await Promise.all(results.slice(0, 4))).toEqual([{ ok: 0 }, { ok: 1 }, { ok: 2 }, { ok: 3 }]);
    expect(limit.usage(7)).toEqual({ running: 0, waiting: 0 });
  });

  it("frees the slot when the work fails, and gives up waiting on abort or after the wait", async () => {
    const limit = new UserLimit({ running: 1, waiting: 2, waitMs: 50 });
    await expect(limit.run(1, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(limit.usage(1)).toEqual({ running: 0, waiting: 0 });

    const hold = deferred();
    const running = limit.run(1, () => hold.promise);
    const controller = new AbortController();
    const aborted = limit.run(1, async () => "never", controller.signal);
    const timedOut = limit.run(1, async () => "never");
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(ClientGoneError);
    await expect(timedOut).rejects.toBeInstanceOf(TooManyRequestsError);
    hold.resolve();
    await running;
    expect(limit.usage(1)).toEqual({ running: 0, waiting: 0 });
  });

  it("says when a user's next request would be refused at once: every place running and waiting", async () => {
    const limit = new UserLimit({ running: 1, waiting: 1, waitMs: 10_000 });
    const gate = deferred();
    expect([limit.full(7), limit.anyFull()]).toEqual([false, false]);
    const first = limit.run(7, () => gate.promise);
    await tick();
    expect([limit.full(7), limit.anyFull()]).toEqual([false, false]); // one may still wait
    const second = limit.run(7, () => Promise.resolve());
    await tick();
    expect([limit.full(7), limit.full(8), limit.anyFull()]).toEqual([true, false, true]);
    gate.resolve();
    await Promise.all([first, second]);
    expect([limit.full(7), limit.anyFull()]).toEqual([false, false]);
  });
});
