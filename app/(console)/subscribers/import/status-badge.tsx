import { Badge } from "@/components/ui/badge";
import type { ImportStatus } from "@/lib/imports/imports";

/** A queued job's state (an import, a bulk change) as a badge says it. */
export const JOB_STATE = {
  in_queue: { tone: "blue", label: "Waiting" },
  running: { tone: "blue", label: "Running" },
  completed: { tone: "green", label: "Completed" },
  failed: { tone: "red", label: "Failed" },
} as const;

/** A preview (a dry run) is "Checking" and then "Ready"; an import waits, runs, completes or fails. */
export function ImportBadge({ status, preview = false }: { status: ImportStatus["status"]; preview?: boolean }) {
  const state = preview && status !== "failed" ? (status === "completed" ? { tone: "green" as const, label: "Ready" } : { tone: "blue" as const, label: "Checking" }) : JOB_STATE[status];
  return <Badge tone={state.tone}>{state.label}</Badge>;
}
