import { Badge } from "@/components/ui/badge";
import type { ImportStatus } from "@/lib/imports/imports";

const STATE = {
  in_queue: { tone: "blue", label: "Waiting" },
  running: { tone: "blue", label: "Running" },
  completed: { tone: "green", label: "Completed" },
  failed: { tone: "red", label: "Failed" },
} as const;

export function ImportBadge({ status }: { status: ImportStatus["status"] }) {
  const state = STATE[status];
  return <Badge tone={state.tone}>{state.label}</Badge>;
}
