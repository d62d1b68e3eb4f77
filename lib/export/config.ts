import path from "node:path";

// Settings of the subscriber export, read from the environment (see the README's configuration
// table). Read on each use, so tests and scripts can set them before starting a worker.

function int(name: string, fallback: number, min = 0): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min} (got "${raw}").`);
  return n;
}

export const exportConfig = {
  /** Where the files live; named by the export's random id, never by user input. */
  get dir() {
    return path.resolve(/*turbopackIgnore: true*/ process.env.EXPORT_DIR?.trim() || ".data/exports");
  },
  /**
   * Rows per keyset batch (one COPY statement each). The rows stream in chunks whatever the
   * batch's size, so memory does not grow with it; larger batches are fewer statements.
   */
  get batchSize() {
    return int("EXPORT_BATCH_SIZE", 20_000, 1);
  },
  /** Retries after the first attempt fails (a crash counts as a failure once the job expires). */
  get retryLimit() {
    return int("EXPORT_RETRY_LIMIT", 2);
  },
  get retryDelaySeconds() {
    return int("EXPORT_RETRY_DELAY_SECONDS", 5);
  },
  /**
   * How long one attempt may run. It is also how long a job of a killed worker stays "active"
   * before the queue's maintenance hands it to the next attempt.
   */
  get expireSeconds() {
    return int("EXPORT_JOB_EXPIRE_SECONDS", 600, 1);
  },
  /** How often the queue looks for due jobs, and runs its maintenance (expiry of dead jobs). */
  get pollingSeconds() {
    return int("EXPORT_POLL_SECONDS", 2, 1);
  },
  get maintenanceSeconds() {
    return int("EXPORT_MAINTENANCE_SECONDS", 60, 1);
  },
  /** Exports (rows and files) not requested nor downloaded for this long are purged. */
  get retentionHours() {
    return int("EXPORT_RETENTION_HOURS", 24 * 7, 1);
  },
  /** How long a stopping worker lets the running export finish before handing it back. */
  get stopTimeoutSeconds() {
    return int("EXPORT_STOP_TIMEOUT_SECONDS", 20, 1);
  },
};
