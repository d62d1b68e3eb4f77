import { config } from "@/lib/config";

// Settings of the subscriber export itself (see docs/configuration.md); those of the queue it
// runs on are lib/jobs/config.ts's.

export const exportConfig = {
  /**
   * Rows per keyset batch (one COPY statement each). The rows stream in chunks whatever the
   * batch's size, so memory does not grow with it; larger batches are fewer statements.
   */
  get batchSize() {
    return config().EXPORT_BATCH_SIZE;
  },
  /** Exports (rows and files) not requested nor downloaded for this long are purged. */
  get retentionHours() {
    return config().EXPORT_RETENTION_HOURS;
  },
};
