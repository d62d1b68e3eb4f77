import { scopeSlot } from "@/lib/request-scope";
import { log } from "@/lib/telemetry/log";

// A running job's progress lines: its kind, id and attempt on each (set once by the worker), and
// at most one line per job every few seconds however often the job reports.

const PROGRESS_EVERY_MS = 5_000;

type JobLog = { fields: Record<string, unknown>; last: number };

const current = scopeSlot<JobLog>("jobs.log");

/** Runs one attempt of a job; its progress lines carry `fields`. */
export function withJobLog<T>(fields: Record<string, unknown>, run: () => Promise<T>): Promise<T> {
  return current.run({ fields, last: performance.now() }, run);
}

/** What the running job has done so far (counts only: never a row's values). */
export function jobProgress(done: Record<string, number>) {
  const job = current.get();
  if (!job || performance.now() - job.last < PROGRESS_EVERY_MS) return;
  job.last = performance.now();
  log.info({ ...job.fields, ...done }, "job progress");
}
