import { describe, expect, it } from "vitest";
import { keepStartingJobWorker } from "@/lib/jobs/worker";

// A web process whose job worker could not start (the database slow to answer at boot, say) tries
// again, later and later, instead of serving on with nobody working its queue.

describe("the web process's job worker", () => {
  it("is started again after a failed start, waiting longer each time, until one succeeds", async () => {
    const waits: number[] = [];
    let attempts = 0;
    const start = async () => {
      attempts++;
      if (attempts < 5) throw new Error("Connection terminated due to connection timeout");
    };
    await keepStartingJobWorker(start, async (ms) => void waits.push(ms));
    expect(attempts).toBe(5);
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000]);
  });

  it("waits at most a minute between attempts", async () => {
    const waits: number[] = [];
    let attempts = 0;
    await keepStartingJobWorker(
      async () => {
        if (++attempts < 10) throw new Error("down");
      },
      async (ms) => void waits.push(ms),
    );
    expect(Math.max(...waits)).toBe(60_000);
    expect(waits.slice(-3)).toEqual([60_000, 60_000, 60_000]);
  });
});
