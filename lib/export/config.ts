import { config } from "@/lib/config";

// Settings of the subscriber export (see docs/configuration.md), read through the one
// settings module on each use, so tests and scripts can set them before starting a worker.

export const exportConfig = {
  /**
   * Rows per keyset batch (one COPY statement each). The rows stream in chunks whatever the
   * batch's size, so memory does not grow with it; larger batches are fewer statements.
   */
  get batchSize() {
    return config().EXPORT_BATCH_SIZE;
  },
  /** Retries after the first attempt fails (a crash counts as a failure once the job expires). */
  get retryLimit() {
    return config().EXPORT_RETRY_LIMIT;
  },
  get retryDelaySeconds() {
    return config().EXPORT_RETRY_DELAY_SECONDS;
  },
  /**
   * How long one attempt may run. It is also how long a job of a killed worker stays "active"
   * before the queue's maintenance hands it to the next attempt.
   */
  get expireSeconds() {
    return config().EXPORT_JOB_EXPIRE_SECONDS;
  },
  /** How often the queue looks for due jobs, and runs its maintenance (expiry of dead jobs). */
  get pollingSeconds() {
    return config().EXPORT_POLL_SECONDS;
  },
  get maintenanceSeconds() {
    return config().EXPORT_MAINTENANCE_SECONDS;
  },
  /** Exports (rows and files) not requested nor downloaded for this long are purged. */
  get retentionHours() {
    return config().EXPORT_RETENTION_HOURS;
  },
  /** When the scheduled clean-up runs (cron). */
  get purgeCron() {
    return config().EXPORT_PURGE_CRON;
  },
  /** How long a stopping worker lets the running export finish before handing it back. */
  get stopTimeoutSeconds() {
    return config().EXPORT_STOP_TIMEOUT_SECONDS;
  },
};
