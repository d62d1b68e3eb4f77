import fs from "node:fs";

// The peak resident memory of another process while something runs: its VmHWM, reset first by
// writing 5 to /proc/<pid>/clear_refs (Linux 4.0 and later), and VmRSS sampled every 20 ms in
// case the reset is not allowed. Figures in MB.

const statusKb = (pid: number, field: "VmRSS" | "VmHWM") => Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);

export type PeakMemory = {
  /** Resident memory when the watch started. */
  startMb: number;
  /** The most resident memory since. */
  peakMb: number;
  /** Whether the peak is the kernel's own (VmHWM after a reset), not only samples. */
  exact: boolean;
};

export function watchPeakMemory(pid: number): { stop(): PeakMemory } {
  let exact = true;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    exact = false;
  }
  const startKb = statusKb(pid, "VmRSS");
  let sampledKb = startKb;
  const timer = setInterval(() => {
    try {
      sampledKb = Math.max(sampledKb, statusKb(pid, "VmRSS"));
    } catch {
      // the process ended: its last samples stand
    }
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      let peakKb = sampledKb;
      try {
        if (exact) peakKb = Math.max(peakKb, statusKb(pid, "VmHWM"));
      } catch {
        exact = false;
      }
      return { startMb: startKb / 1024, peakMb: peakKb / 1024, exact };
    },
  };
}
