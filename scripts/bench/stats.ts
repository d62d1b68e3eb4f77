// The benchmark's arithmetic and its table: pure functions (tests/unit/bench-stats.test.ts).

/** Nearest-rank percentile of latencies (ms); NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function median(values: readonly number[]): number {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

/** One measurement: latencies of the requests completed in `seconds`. */
export type Sample = { p50: number; p95: number; rps: number; requests: number; errors: number };

export function summarize(latencies: readonly number[], seconds: number, errors = 0): Sample {
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    rps: seconds > 0 ? latencies.length / seconds : 0,
    requests: latencies.length,
    errors,
  };
}

export type Goal = { ok: boolean; text: string };

/**
 * The goals: API p50 ≤ 1.5 × floor + 5 ms, HTML p50 ≤ 2 × floor + 15 ms, and at 10
 * connections p95 ≤ 300 ms. `p95Limit` replaces the last one (the embedded run: 500 ms at 1).
 * `frameworkP50`, when measured, is what an empty Next.js route handler (API) or page (HTML)
 * takes at the same concurrency: a p50 goal below it is marked, as no Next.js answer meets it.
 */
export function goals(
  row: { target: Row["target"]; connections: number; p50: number; p95: number; floorP50: number },
  p95Limit: { connections: number; ms: number } = { connections: 10, ms: 300 },
  frameworkP50?: number,
): Goal[] {
  const out: Goal[] = [];
  if (row.target === "api" || row.target === "html") {
    const [k, plus] = row.target === "api" ? [1.5, 5] : [2, 15];
    const limit = k * row.floorP50 + plus;
    const below = frameworkP50 !== undefined && limit < frameworkP50 ? `, below the framework's ${fmt(frameworkP50)}` : "";
    out.push({ ok: row.p50 <= limit, text: `p50 ≤ ${k}×floor+${plus} (${fmt(limit)}${below})` });
  }
  if (row.connections === p95Limit.connections && (row.target === "api" || row.target === "html")) {
    out.push({ ok: row.p95 <= p95Limit.ms, text: `p95 ≤ ${p95Limit.ms}` });
  }
  return out;
}

export function fmt(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

export type Row = {
  scenario: string;
  /** The app's answers, or the floor of both (the API's statements), or each's when the page runs more. */
  target: "api" | "html" | "floor" | "floor api" | "floor html";
  connections: number;
  p50: number;
  p95: number;
  rps: number;
  floorP50: number;
  /** Median of the rounds' (app p50 / floor p50). */
  ratio: number;
  errors: number;
  goals: Goal[];
};

/** The markdown table of the results. */
export function markdownTable(rows: Row[]): string {
  const head =
    "| scenario | target | conns | p50 ms | p95 ms | req/s | floor p50 ms | ratio | goals |\n" +
    "|---|---|--:|--:|--:|--:|--:|--:|---|";
  const lines = rows.map((r) => {
    const g = r.goals.length ? r.goals.map((x) => `${x.ok ? "✓" : "✗"} ${x.text}`).join("; ") : "";
    const errors = r.errors ? ` (${r.errors} errors)` : "";
    return `| ${r.scenario} | ${r.target} | ${r.connections} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${r.rps.toFixed(0)}${errors} | ${fmt(r.floorP50)} | ${r.target.startsWith("floor") ? "1" : Number.isFinite(r.ratio) ? r.ratio.toFixed(2) : "–"} | ${g} |`;
  });
  return [head, ...lines].join("\n");
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`; null when absent. */
export function replaceBetweenMarkers(text: string, name: string, content: string): string | null {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) return null;
  return `${text.slice(0, a + start.length)}\n${content.trim()}\n${text.slice(b)}`;
}
