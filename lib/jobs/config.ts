import { config } from "@/lib/config";

// Job settings (docs/configuration.md), read on each use so tests and scripts can set them. The
// EXPORT_* names they had are still read, with a warning (lib/config.ts).

export const jobConfig = {
  /** Retries after the first attempt fails (a crash counts as a failure once the job expires). */
  get retryLimit() {
    return config().JOB_RETRY_LIMIT;
  },
  get retryDelaySeconds() {
    return config().JOB_RETRY_DELAY_SECONDS;
  },
  /** How long one attempt may run; also how long a killed worker's job stays active before it is retried. */
  get expireSeconds() {
    return config().JOB_EXPIRE_SECONDS;
  },
  /** How often the queue looks for due jobs, and runs its maintenance (expiry of dead jobs). */
  get pollingSeconds() {
    return config().JOB_POLL_SECONDS;
  },
  get maintenanceSeconds() {
    return config().JOB_MAINTENANCE_SECONDS;
  },
  /** When the scheduled clean-up runs (cron). */
  get purgeCron() {
    return config().JOB_PURGE_CRON;
  },
  /** How long a stopping worker lets its running jobs finish before handing them back. */
  get stopTimeoutSeconds() {
    return config().JOB_STOP_TIMEOUT_SECONDS;
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
