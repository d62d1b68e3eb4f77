import { getTranslations } from "next-intl/server";
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
export async function ImportBadge({ status, preview = false }: { status: ImportStatus["status"]; preview?: boolean }) {
  const t = await getTranslations("import");
  const state = preview && status !== "failed" ? (status === "completed" ? "ready" : "checking") : status;
  const tone = state === "ready" ? "green" : state === "checking" ? "blue" : JOB_STATE[state].tone;
  return <Badge tone={tone}>{t(`status.${state}`)}</Badge>;
}
