import { config } from "@/lib/config";

// The export's own settings (docs/configuration.md); the queue's are in lib/jobs/config.ts.

export const exportConfig = {
  /** Rows per keyset batch (one COPY each); memory does not grow with it, larger means fewer statements. */
  get batchSize() {
    return config().EXPORT_BATCH_SIZE;
  },
  /** Exports (rows and files) not requested nor downloaded for this long are purged. */
  get retentionHours() {
    return config().EXPORT_RETENTION_HOURS;
  },
};
