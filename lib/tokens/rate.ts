import { config } from "@/lib/config";
import { processWide } from "@/lib/process-wide";

// Requests per API token and minute, so a looping script cannot take the server from people.
// Counted per process, one map for every layer of the build (lib/process-wide.ts).

type Window = { start: number; count: number };
const windows = processWide("tokens.rate-windows", () => new Map<number, Window>());
const WINDOW_MS = 60_000;

/** Seconds to wait before token `id` may send another request; 0 when it may go now (and it is counted). */
export function tokenRateWait(id: number, now = Date.now()): number {
  const limit = config().TOKEN_REQUESTS_PER_MINUTE;
  let window = windows.get(id);
  if (!window || now - window.start >= WINDOW_MS) {
    window = { start: now, count: 0 };
    windows.set(id, window);
    if (windows.size > 10_000) for (const [key, w] of windows) if (now - w.start >= WINDOW_MS) windows.delete(key);
  }
  if (window.count >= limit) return Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
  window.count++;
  return 0;
}

/** Tests: forget every window. */
export function resetTokenRates() {
  windows.clear();
}
