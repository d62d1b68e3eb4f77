import { describe, expect, it } from "vitest";
import { poolShare, WEB_SLOT, webProcesses, webSlot } from "@/lib/server/web-processes";

// How many processes serve, and each one's share of the connections (docs/decisions/0036-every-core.md).

const postgres = { DATABASE_URL: "postgres://127.0.0.1/console", DATABASE_POOL_SIZE: 10, WEB_CONCURRENCY: undefined };

describe("web processes", () => {
  it("defaults to one a core on PostgreSQL, as many as the pool gives two connections each", () => {
    expect(webProcesses(postgres, 2)).toBe(2);
    expect(webProcesses(postgres, 1)).toBe(1);
    expect(webProcesses(postgres, 16)).toBe(5);
    expect(webProcesses({ ...postgres, DATABASE_POOL_SIZE: 40 }, 16)).toBe(16);
    expect(webProcesses({ ...postgres, DATABASE_POOL_SIZE: 1 }, 4)).toBe(1);
  });

  it("keeps one on the embedded database, and takes WEB_CONCURRENCY as it is", () => {
    expect(webProcesses({ ...postgres, DATABASE_URL: undefined }, 8)).toBe(1);
    expect(webProcesses({ ...postgres, WEB_CONCURRENCY: 1 }, 8)).toBe(1);
    expect(webProcesses({ ...postgres, WEB_CONCURRENCY: 3 }, 2)).toBe(3);
  });

  it("gives a web process of several its share of DATABASE_POOL_SIZE, and anything else the whole", () => {
    const slot = { [WEB_SLOT]: "2" };
    expect(poolShare({ ...postgres, WEB_CONCURRENCY: 2 }, slot)).toBe(5);
    expect(poolShare({ ...postgres, WEB_CONCURRENCY: 3 }, slot)).toBe(3);
    expect(poolShare({ ...postgres, WEB_CONCURRENCY: 3 }, {})).toBe(10);
    expect(poolShare({ ...postgres, WEB_CONCURRENCY: 1 }, { [WEB_SLOT]: "1" })).toBe(10);
  });

  it("reads its slot, 1 when it has none or a bad one", () => {
    expect(webSlot({ [WEB_SLOT]: "3" })).toBe(3);
    for (const env of [{}, { [WEB_SLOT]: "" }, { [WEB_SLOT]: "0" }, { [WEB_SLOT]: "x" }]) expect(webSlot(env)).toBe(1);
  });
});
