import { describe, expect, it } from "vitest";
import { isReadableRouterState, MAX_ROUTER_STATE_DEPTH } from "@/lib/framework-gaps/router-state";

// Issue 19, point 5: a malformed Next-Router-State-Tree header with `RSC: 1` answered 500.
// lib/server/incoming.ts refuses what Next's own reader cannot read.

describe("Next-Router-State-Tree", () => {
  it("takes the trees a browser sends", () => {
    const sent = ["", { children: ["(console)", { children: ["branches", { children: [["id", "54", "d", null], { children: ["edit", { children: ["__PAGE__", {}, null, null] }] }] }] }] }, null, "refetch"];
    expect(isReadableRouterState(encodeURIComponent(JSON.stringify(sent)))).toBe(true);
    expect(isReadableRouterState(undefined)).toBe(true);
  });

  it("refuses what Next cannot read, and a tree deeper than any route before Next's reader spends its time on it", () => {
    const deep = (levels: number) => `${'["",{"a":'.repeat(levels)}["",{}]${"}]".repeat(levels)}`;
    expect(isReadableRouterState(deep(MAX_ROUTER_STATE_DEPTH))).toBe(true);
    expect(isReadableRouterState(deep(MAX_ROUTER_STATE_DEPTH + 1))).toBe(false);
    for (const header of ["garbage", "%7B", "%FF", "null", "[1]", encodeURIComponent('["",{"children":5}]'), "x".repeat(40_001), deep(2500), deep(100_000)]) {
      expect(isReadableRouterState(header), header.slice(0, 30)).toBe(false);
    }
  });
});
