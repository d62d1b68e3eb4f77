import { config } from "@/lib/config";

// Job settings (README's configuration table), read on each use so tests and scripts can set them;
// the EXPORT_* names are kept for compatibility though they cover every job.

export const jobConfig = {
  /** Retries after the first attempt fails (a crash counts as a failure once the job expires). */
  get retryLimit() {
    return config().EXPORT_RETRY_LIMIT;
  },
  get retryDelaySeconds() {
    return config().EXPORT_RETRY_DELAY_SECONDS;
  },
  /** How long one attempt may run; also how long a killed worker's job stays active before it is retried. */
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
  /** When the scheduled clean-up runs (cron). */
  get purgeCron() {
    return config().EXPORT_PURGE_CRON;
  },
  /** How long a stopping worker lets its running jobs finish before handing them back. */
  get stopTimeoutSeconds() {
    return config().EXPORT_STOP_TIMEOUT_SECONDS;
  },
  /** Jobs a user may have queued or running at once, all kinds together (docs/decisions/0022-jobs-fair-per-user.md). */
  get perUser() {
    return config().JOBS_PER_USER;
  },
  /** Jobs one worker process runs at once: more than one user may hold (docs/decisions/0022-jobs-fair-per-user.md). */
  get concurrency() {
    return config().JOB_CONCURRENCY;
  },
};
