// Load on the app (autocannon, programmatic) and on the database (the floor), the same way:
// `connections` clients, each sending its next request as soon as the last one is answered, for
// `seconds`; every latency is kept, so p50/p95 are exact (autocannon's own summary has no p95).
import autocannon from "autocannon";
import { summarize, type Sample } from "./stats";

export async function loadHttp(o: {
  url: string;
  cookie: string;
  /** An `Authorization` header (a bearer token), sent besides the cookie. */
  authorization?: string;
  /** An `Accept-Language` header: the page's language for a user who chose none. */
  acceptLanguage?: string;
  connections: number;
  seconds: number;
  /** Counts the answers that were not 2xx by status (0: no answer: a refused or reset connection, a timeout). */
  failures?: Map<number, number>;
}): Promise<Sample> {
  const latencies: number[] = [];
  let errors = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: o.url,
        connections: o.connections,
        duration: o.seconds,
        timeout: 30,
        // Like a browser (and fetch): Next compresses what it sends.
        headers: { cookie: o.cookie, "accept-encoding": "gzip", ...(o.authorization ? { authorization: o.authorization } : {}), ...(o.acceptLanguage ? { "accept-language": o.acceptLanguage } : {}) },
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status >= 200 && status < 300) latencies.push(ms);
      else {
        errors++;
        o.failures?.set(status, (o.failures.get(status) ?? 0) + 1);
      }
    });
  });
  errors += result.errors + result.timeouts;
  if (result.errors + result.timeouts > 0) o.failures?.set(0, (o.failures.get(0) ?? 0) + result.errors + result.timeouts);
  return summarize(latencies, o.seconds, errors);
}

/** The database's answer time for one request's statements, sent as the app sends them. */
export type Request = () => Promise<unknown>;

export async function loadDirect(o: { request: Request; connections: number; seconds: number }): Promise<Sample> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + o.seconds * 1000;
  await Promise.all(
    Array.from({ length: o.connections }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        try {
          await o.request();
          latencies.push(performance.now() - t);
        } catch (error) {
          if (++errors === 1) console.error(`  floor: ${(error as Error).message}`);
          if (errors > 100) throw error;
        }
      }
    }),
  );
  return summarize(latencies, o.seconds, errors);
}

/** One request of a kind, to check the answer before measuring it. */
export async function probe(url: string, cookie: string): Promise<{ status: number; body: string; type: string }> {
  const r = await fetch(url, { headers: { cookie }, redirect: "manual" });
  return { status: r.status, body: await r.text(), type: r.headers.get("content-type") ?? "" };
}
