import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { WebhookDeliveryRow, WebhookRow } from "@/lib/webhooks/endpoints";

/** An endpoint's state in words (never colour alone). */
export function StatusBadge({ row }: { row: Pick<WebhookRow, "enabled" | "disabled_reason" | "failing_since"> }) {
  if (!row.enabled) return <Badge tone={row.disabled_reason ? "red" : "slate"}>{row.disabled_reason ? "Turned off by the console" : "Off"}</Badge>;
  return row.failing_since ? <Badge tone="amber">On, failing</Badge> : <Badge tone="green">On</Badge>;
}

const DELIVERY: Record<WebhookDeliveryRow["status"], [BadgeTone, string]> = {
  pending: ["blue", "Pending"],
  delivered: ["green", "Delivered"],
  failed: ["amber", "Failed, will retry"],
  dead: ["red", "Gave up"],
};

export function DeliveryBadge({ status }: { status: WebhookDeliveryRow["status"] }) {
  const [tone, label] = DELIVERY[status];
  return <Badge tone={tone}>{label}</Badge>;
}
