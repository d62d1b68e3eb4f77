// The abuse scenario: one user's burst of the costliest list requests beside another
// user's normal reads. What it reports is the other user's answers: their p50/p95, and whether
// any failed (a 503 there is what the issue forbids), measured alone and then during the burst.
//
// - the burst: the staff bench user, BURST_CONNECTIONS connections that each send the next
//   request as soon as the last is answered (an attacker ignores Retry-After), cycling through
//   the issue's three worst cases on the API, the same and the search of every vowel on the list
//   page, and the bulk change's confirmation page (which counts every match). Pages and API in one
//   burst: a limit made by one surface must refuse on the other with its 429 or notice, never a
//   500 (the production build holds a copy of each module per layer: lib/errors.ts);
// - the normal reads: the admin bench user, one request at a time, cycling through the branch list
//   (the issue's one-row request), the first subscriber page, a surname search and the recent
//   imports (which wait on the export's connections, where the bulk page's counts once ran), on
//   the API; every one is awaited to its end, so a starved read counts with its full wait (or failure).
import autocannon from "autocannon";
import { fmt, median, percentile } from "./stats";

export const BURST_CONNECTIONS = 24;

const EMOJI = encodeURIComponent("😀".repeat(60));

/** The issue's three worst cases, each 0.35–0.6 s alone on the code before it. */
const WORST_QUERIES = ["page=1000000000&sort=branch_name", `first_name=${EMOJI}`, "email=.com&page=1000000000&sort=country_name"];
/** Every vowel, each a one-letter word of the search: no trigram serves it. */
const VOWELS = "q=a%20e%20i%20o%20u";

export const BURST_PATHS = [
  ...WORST_QUERIES.map((q) => `/api/v1/subscribers?${q}`),
  ...WORST_QUERIES.map((q) => `/subscribers?${q}`),
  `/subscribers?${VOWELS}&sort=country_name`,
  `/subscribers/bulk?scope=all&change=mandatory:true&${VOWELS}`,
];

export const NORMAL_PATHS = ["/api/v1/branches?page=1", "/api/v1/subscribers", "/api/v1/subscribers?last_name=mill", "/api/v1/subscribers/imports"];

/** Rounds at least: p50 and p95 are medians of the rounds. */
export const MIN_ABUSE_ROUNDS = 3;

/** Answers of a load run: every latency of a 2xx, and how many of each status. */
export type Tally = { latencies: number[]; statuses: Record<string, number>; seconds: number };

export type AbuseResult = {
  seconds: number;
  rounds: number;
  /** The admin's reads alone, then during the burst, per round. */
  alone: Tally[];
  during: Tally[];
  /** The burst's answers, per round. */
  burst: Tally[];
};

/** The burst: autocannon, every connection sending its next request as soon as one is answered. */
function load(url: string, cookie: string, paths: string[], connections: number, seconds: number): { done: Promise<Tally> } {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const done = new Promise<Tally>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        timeout: 30,
        headers: { cookie, "accept-encoding": "gzip" },
        requests: paths.map((path) => ({ method: "GET" as const, path })),
      },
      (error, result) => {
        if (error) return reject(error);
        if (result.errors || result.timeouts) statuses.error = (statuses.error ?? 0) + result.errors + result.timeouts;
        resolve({ latencies, statuses, seconds });
      },
    );
    instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
  return { done };
}

/**
 * The other user's reads: one after the other for `seconds`, each awaited to its end however
 * long it takes (a load generator's window would drop the very answers that starve), 30 s at most.
 */
async function reads(url: string, cookie: string, seconds: number): Promise<Tally> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const end = performance.now() + seconds * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const started = performance.now();
    let status: string;
    try {
      const response = await fetch(`${url}${NORMAL_PATHS[i % NORMAL_PATHS.length]}`, {
        headers: { cookie, "accept-encoding": "gzip" },
        signal: AbortSignal.timeout(30_000),
      });
      await response.arrayBuffer();
      status = String(response.status);
      if (response.ok) latencies.push(performance.now() - started);
    } catch {
      status = "no answer";
    }
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  return { latencies, statuses, seconds };
}

/** Alone, then beside the burst, `rounds` times. */
export async function runAbuse(o: { url: string; adminCookie: string; staffCookie: string; seconds: number; rounds: number }): Promise<AbuseResult> {
  const rounds = Math.max(MIN_ABUSE_ROUNDS, o.rounds);
  const result: AbuseResult = { seconds: o.seconds, rounds, alone: [], during: [], burst: [] };
  // Warm-up, as the main table's: the other user's reads, then 2 s of the burst (its plans, the
  // table's pages in cache), then a pause for its last answers.
  await reads(o.url, o.adminCookie, 1);
  await load(o.url, o.staffCookie, BURST_PATHS, BURST_CONNECTIONS, 2).done;
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  for (let r = 0; r < rounds; r++) {
    result.alone.push(await reads(o.url, o.adminCookie, o.seconds));
    const burst = load(o.url, o.staffCookie, BURST_PATHS, BURST_CONNECTIONS, o.seconds + 2);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the burst is under way
    result.during.push(await reads(o.url, o.adminCookie, o.seconds));
    result.burst.push(await burst.done);
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // let the burst's last answers drain
  }
  return result;
}

const failed = (t: Tally) => Object.entries(t.statuses).filter(([s]) => !/^2\d\d$/.test(s)).reduce((n, [, c]) => n + c, 0);
const maxOf = (tallies: Tallies) => {
  const all = tallies.flatMap((t) => t.latencies);
  return all.length ? Math.max(...all) : NaN;
};
type Tallies = Tally[];
const statusList = (tallies: Tallies, failuresOnly = false) => {
  const sum: Record<string, number> = {};
  for (const t of tallies) for (const [s, c] of Object.entries(t.statuses)) if (!failuresOnly || !/^2\d\d$/.test(s)) sum[s] = (sum[s] ?? 0) + c;
  return Object.entries(sum)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, c]) => `${c.toLocaleString("en-GB")} × ${s}`)
    .join(", ");
};

export type AbuseSummary = { aloneP50: number; aloneP95: number; duringP50: number; duringP95: number; duringMax: number; otherFailed: number; otherAnswered: number };

export function summarizeAbuse(r: AbuseResult): AbuseSummary {
  const p = (xs: Tally[], q: number) => median(xs.map((t) => percentile(t.latencies, q)));
  return {
    aloneP50: p(r.alone, 50),
    aloneP95: p(r.alone, 95),
    duringP50: p(r.during, 50),
    duringP95: p(r.during, 95),
    duringMax: maxOf(r.during),
    otherFailed: r.during.reduce((n, t) => n + failed(t), 0) + r.alone.reduce((n, t) => n + failed(t), 0),
    otherAnswered: r.during.reduce((n, t) => n + t.latencies.length, 0),
  };
}

/** The section of the report (bench/results/abuse.md). */
export function abuseMarkdown(r: AbuseResult, p95LimitMs: number): string {
  const s = summarizeAbuse(r);
  const burstFailed = r.burst.reduce((n, t) => n + Object.entries(t.statuses).filter(([st]) => /^5\d\d$|^error$/.test(st)).reduce((m, [, c]) => m + c, 0), 0);
  const ok = s.otherFailed === 0 && s.duringP95 <= p95LimitMs && burstFailed === 0;
  return [
    `The staff bench user sends the issue's three worst requests on the API and on the list page, the search of every vowel on the list page and the bulk change's confirmation page, on ${BURST_CONNECTIONS} connections at once, each connection the next as soon as it is answered (Retry-After ignored): ${BURST_PATHS.map((p) => `\`${p.replace(EMOJI, "<60 emoji>")}\``).join(", ")}. Meanwhile the admin bench user reads, one request at a time, each awaited to its end: ${NORMAL_PATHS.map((p) => `\`${p}\``).join(", ")}, in turn. After a warm-up of both, ${r.rounds} rounds of ${r.seconds} s alone, then ${r.seconds} s during the burst; p50/p95 are medians of the rounds, max and counts over all rounds. The pages answer 200 with a notice when the user has too many lists loading; a 5xx among the burst's answers is a failure too.`,
    "",
    "| the other user's reads | p50 ms | p95 ms | max ms | 2xx | not 2xx |",
    "|---|--:|--:|--:|--:|---|",
    `| alone | ${fmt(s.aloneP50)} | ${fmt(s.aloneP95)} | ${fmt(maxOf(r.alone))} | ${r.alone.reduce((n, t) => n + t.latencies.length, 0)} | ${statusList(r.alone, true) || "0"} |`,
    `| during the burst | ${fmt(s.duringP50)} | ${fmt(s.duringP95)} | ${fmt(s.duringMax)} | ${s.otherAnswered} | ${statusList(r.during, true) || "0"} |`,
    "",
    `The burst's answers: ${statusList(r.burst)}.`,
    "",
    `Goal: none of the other user's reads fails (no 503), their p95 during the burst stays ≤ ${p95LimitMs} ms, and the burst itself gets no 5xx (its refusals are 429s and notices): ${ok ? "✓ met" : "✗ not met"} (p95 ${fmt(s.duringP95)} ms, ${s.otherFailed} failed, ${burstFailed} 5xx in the burst).`,
  ].join("\n");
}
