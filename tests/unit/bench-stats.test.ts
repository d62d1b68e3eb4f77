import { describe, expect, it } from "vitest";
import { scriptSources } from "@/scripts/bench/page-weight";
import { formatDuration, rate } from "@/scripts/bench/progress";
import { pickScenarios, SCENARIOS, scenariosFor, targetPath } from "@/scripts/bench/scenarios";
import { goals, markdownTable, median, percentile, replaceBetweenMarkers, summarize } from "@/scripts/bench/stats";

describe("percentile and median", () => {
  it("uses the nearest rank", () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 95)).toBe(95);
    expect(percentile(xs, 100)).toBe(100);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it("takes the middle, or the mean of the two middles, ignoring NaN", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([NaN, 5])).toBe(5);
    expect(median([])).toBeNaN();
  });

  it("summarizes a run", () => {
    expect(summarize([1, 2, 3, 4], 2, 1)).toEqual({ p50: 2, p95: 4, rps: 2, requests: 4, errors: 1 });
  });
});

describe("goals", () => {
  it("allows the API 1.5 × floor + 5 ms and the HTML 2 × floor + 15 ms", () => {
    expect(goals({ target: "api", connections: 1, p50: 20, p95: 30, floorP50: 10 })).toEqual([{ ok: true, text: "p50 ≤ 1.5×floor+5 (20.0)" }]);
    expect(goals({ target: "api", connections: 1, p50: 20.1, p95: 30, floorP50: 10 })[0]!.ok).toBe(false);
    expect(goals({ target: "html", connections: 1, p50: 35, p95: 30, floorP50: 10 })[0]!.ok).toBe(true);
    expect(goals({ target: "html", connections: 1, p50: 35.5, p95: 30, floorP50: 10 })[0]!.ok).toBe(false);
  });

  it("marks a p50 goal that is below what an empty Next.js answer takes", () => {
    expect(goals({ target: "api", connections: 10, p50: 30, p95: 40, floorP50: 2 }, undefined, 9)[0]).toEqual({
      ok: false,
      text: "p50 ≤ 1.5×floor+5 (8.00, below the framework's 9.00)",
    });
    expect(goals({ target: "html", connections: 10, p50: 30, p95: 40, floorP50: 2 }, undefined, 9)[0]!.text).toBe("p50 ≤ 2×floor+15 (19.0)");
  });

  it("checks p95 only at the concurrency the limit names, and never for the floor", () => {
    expect(goals({ target: "api", connections: 10, p50: 1, p95: 301, floorP50: 1 }).map((g) => g.ok)).toEqual([true, false]);
    expect(goals({ target: "floor", connections: 10, p50: 1, p95: 999, floorP50: 1 })).toEqual([]);
    expect(goals({ target: "html", connections: 1, p50: 1, p95: 499, floorP50: 1 }, { connections: 1, ms: 500 }).map((g) => g.ok)).toEqual([true, true]);
  });
});

describe("report", () => {
  it("renders a markdown row per measurement", () => {
    const table = markdownTable([
      { scenario: "first-page", target: "api", connections: 10, p50: 12.345, p95: 250, rps: 80.4, floorP50: 4, ratio: 3.09, errors: 0, goals: [{ ok: false, text: "x" }] },
    ]);
    expect(table.split("\n")).toHaveLength(3);
    expect(table).toContain("| first-page | api | 10 | 12.3 | 250 | 80 | 4.00 | 3.09 | ✗ x |");
  });

  it("replaces the text between markers, and only there", () => {
    const text = "a\n<!-- bench:postgres:start -->\nold\n<!-- bench:postgres:end -->\nb";
    expect(replaceBetweenMarkers(text, "bench:postgres", "new")).toBe("a\n<!-- bench:postgres:start -->\nnew\n<!-- bench:postgres:end -->\nb");
    expect(replaceBetweenMarkers(text, "bench:embedded", "new")).toBeNull();
  });
});

describe("scenarios", () => {
  it("covers the issue's list, each with a page and an API path", () => {
    expect(SCENARIOS.map((s) => s.id)).toEqual(
      expect.arrayContaining(["first-page", "name-contains", "status-flags", "created-range", "country-by-last-name", "deep-page", "branches"]),
    );
    const deep = SCENARIOS.find((s) => s.id === "deep-page")!;
    expect(targetPath(deep, "html")).toBe("/subscribers?page=50000");
    expect(targetPath(deep, "api")).toBe("/api/v1/subscribers?page=50000");
    expect(targetPath(SCENARIOS.find((s) => s.id === "branches")!, "api")).toBe("/api/v1/branches");
  });

  it("takes page 50,000 at a million rows and the middle page of smaller data", () => {
    const deep = (n: number) => scenariosFor(n).find((s) => s.id === "deep-page")!.query;
    expect(deep(1_000_000)).toBe("page=50000");
    expect(deep(100_000)).toBe("page=5000");
    expect(scenariosFor(100_000).find((s) => s.id === "first-page")).toBe(SCENARIOS[0]);
  });

  it("picks by id and refuses unknown ones", () => {
    expect(pickScenarios("deep-page,branches").map((s) => s.id)).toEqual(["deep-page", "branches"]);
    expect(pickScenarios(undefined)).toHaveLength(SCENARIOS.length);
    expect(() => pickScenarios("nope")).toThrow(/Unknown scenario/);
  });
});

describe("page weight and progress helpers", () => {
  it("collects script sources once each, without nomodule polyfills", () => {
    const html =
      '<script src="/_next/static/chunks/a.js" async=""></script><script src="/_next/static/chunks/a.js"></script>' +
      '<script src="/_next/static/chunks/polyfills.js" noModule=""></script><script>self.__next_f.push([1])</script>' +
      '<script src="/_next/static/chunks/b.js?v=1&amp;x=2"></script>';
    expect(scriptSources(html)).toEqual(["/_next/static/chunks/a.js", "/_next/static/chunks/b.js?v=1&x=2"]);
  });

  it("computes rows/s and time left", () => {
    expect(rate(250, 1000, 5)).toEqual({ perSecond: 50, left: 15 });
    expect(rate(0, 1000, 0).left).toBe(Infinity);
    expect(formatDuration(75)).toBe("1m15s");
    expect(formatDuration(9.4)).toBe("9s");
    expect(formatDuration(Infinity)).toBe("?");
  });
});
