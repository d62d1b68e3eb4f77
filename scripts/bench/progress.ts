import type { Progress } from "@/tools/seed/bulk";

/** Rows/s and time left: pure, so it can be tested. */
export function rate(done: number, total: number, seconds: number) {
  const perSecond = seconds > 0 ? done / seconds : 0;
  const left = perSecond > 0 ? (total - done) / perSecond : Infinity;
  return { perSecond, left };
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  const s = Math.max(0, Math.round(seconds));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

/**
 * Prints the loader's progress: a line rewritten in place on a terminal, else a line every 10%
 * (logs of CI and of the benchmark stay short).
 */
export function progressPrinter(stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = Boolean(stream.isTTY);
  const starts = new Map<string, number>();
  let lastDecile = -1;
  let open = false;
  const end = () => {
    if (open) stream.write("\n");
    open = false;
  };
  return ({ phase, done, total, message }) => {
    if (!starts.has(phase)) {
      starts.set(phase, performance.now());
      lastDecile = -1;
    }
    if (done === undefined || total === undefined) {
      end();
      stream.write(`  ${phase}: ${message ?? ""}\n`);
      return;
    }
    const seconds = (performance.now() - starts.get(phase)!) / 1000;
    const { perSecond, left } = rate(done, total, seconds);
    const pct = total ? Math.floor((done / total) * 100) : 100;
    const unit = phase === "insert" ? "rows" : "indexes";
    const line =
      `  ${phase}: ${done.toLocaleString("en-GB")}/${total.toLocaleString("en-GB")} ${unit} (${pct}%)` +
      (phase === "insert" ? `, ${Math.round(perSecond).toLocaleString("en-GB")} rows/s` : "") +
      `, ${formatDuration(seconds)} elapsed, ETA ${done === total ? "0s" : formatDuration(left)}` +
      (message ? ` — ${message}` : "");
    if (tty) {
      stream.write(`\r\x1b[2K${line}`);
      open = true;
      if (done === total) end();
    } else {
      const decile = Math.floor(pct / 10);
      if (decile !== lastDecile || done === total || phase === "indexes") {
        lastDecile = decile;
        stream.write(`${line}\n`);
      }
    }
  };
}
