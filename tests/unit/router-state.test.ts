import fc from "fast-check";
import { parseAndValidateFlightRouterState } from "next/dist/server/app-render/parse-and-validate-flight-router-state";
import { describe, expect, it } from "vitest";
import { isReadableRouterState, MAX_ROUTER_STATE_DEPTH } from "@/lib/server/router-state";

// Issue 19, point 5: a malformed Next-Router-State-Tree header with `RSC: 1` answered 500.
// lib/server/incoming.ts refuses what Next cannot read; this holds its check to Next's own.

function nextReads(header: string): boolean {
  try {
    parseAndValidateFlightRouterState(header);
    return true;
  } catch {
    return false;
  }
}

const name = fc.constantFrom("", "children", "(console)", "subscribers", "__PAGE__", "modal", "x");
const segment = fc.oneof(
  name,
  fc.tuple(fc.constantFrom("id", "slug"), fc.string({ maxLength: 4 }), fc.constantFrom("d", "c", "oc", "ci(..)", "x", ""), fc.oneof(fc.constant(null), fc.array(name, { maxLength: 2 }))),
  fc.tuple(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), fc.constantFrom("d", "c")),
  fc.constantFrom(null, 1, {}, []),
);
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.tuple(segment, fc.constant({})),
    fc.tuple(segment, fc.dictionary(name, tie("tree"), { maxKeys: 2 })),
    fc.tuple(segment, fc.array(tie("tree"), { maxLength: 2 })),
    fc.tuple(
      segment,
      fc.dictionary(name, tie("tree"), { maxKeys: 2 }),
      fc.oneof(fc.constant(null), fc.tuple(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 })), fc.constant(["x"]), fc.constant(1)),
      fc.constantFrom(null, "refetch", "inside-shared-layout", "metadata-only", "other", 1),
      fc.constantFrom(null, 0, 3, "1"),
      fc.constantFrom("", "x", null, 1),
    ).map((t) => t.slice(0, 2 + (t[1] ? Object.keys(t[1]).length % 5 : 0))),
    fc.jsonValue({ maxDepth: 3 }),
  ),
}));
const header = fc.oneof(
  tree.map((t) => encodeURIComponent(JSON.stringify(t))),
  tree.map((t) => JSON.stringify(t)),
  fc.string(),
  fc.constantFrom("%", "%FF", "%7B", "[", "null", "", "x".repeat(40_001)),
);

describe("Next-Router-State-Tree", () => {
  it("is refused exactly when Next cannot read it", () => {
    const seen = { readable: 0, refused: 0 };
    fc.assert(
      fc.property(header, (h) => {
        const readable = nextReads(h);
        seen[readable ? "readable" : "refused"]++;
        expect(isReadableRouterState(h), h.slice(0, 200)).toBe(readable);
      }),
      { numRuns: 5000, seed: 19 },
    );
    // The generator reaches both sides often enough for the comparison to mean something.
    expect(seen.readable).toBeGreaterThan(300);
    expect(seen.refused).toBeGreaterThan(300);
  });

  it("takes the trees a browser sends", () => {
    const sent = ["", { children: ["(console)", { children: ["branches", { children: [["id", "54", "d", null], { children: ["edit", { children: ["__PAGE__", {}, null, null] }] }] }] }] }, null, "refetch"];
    expect(isReadableRouterState(encodeURIComponent(JSON.stringify(sent)))).toBe(true);
    expect(isReadableRouterState(undefined)).toBe(true);
  });

  it("refuses a tree deeper than any route, before Next's validator runs out of stack", () => {
    const deep = (levels: number) => `${'["",{"a":'.repeat(levels)}["",{}]${"}]".repeat(levels)}`;
    expect(isReadableRouterState(deep(MAX_ROUTER_STATE_DEPTH))).toBe(true);
    expect(nextReads(deep(MAX_ROUTER_STATE_DEPTH))).toBe(true);
    expect(isReadableRouterState(deep(MAX_ROUTER_STATE_DEPTH + 1))).toBe(false);
    expect(isReadableRouterState(deep(2500))).toBe(false);
    expect(nextReads(deep(2500))).toBe(false);
  });
});
