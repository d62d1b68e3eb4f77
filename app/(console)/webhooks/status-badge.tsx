import { useTranslations } from "next-intl";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { WebhookDeliveryRow, WebhookRow } from "@/lib/webhooks/endpoints";

// Server components (the pages' rows): next-intl's useTranslations reads the request's catalogue here.

/** An endpoint's state in words (never colour alone). */
export function StatusBadge({ row }: { row: Pick<WebhookRow, "enabled" | "disabled_reason" | "failing_since"> }) {
  const t = useTranslations("webhooks.status");
  if (!row.enabled) return <Badge tone={row.disabled_reason ? "red" : "slate"}>{row.disabled_reason ? t("consoleOff") : t("off")}</Badge>;
  return row.failing_since ? <Badge tone="amber">{t("failing")}</Badge> : <Badge tone="green">{t("on")}</Badge>;
}

const DELIVERY: Record<WebhookDeliveryRow["status"], BadgeTone> = { pending: "blue", delivered: "green", failed: "amber", dead: "red" };

export function DeliveryBadge({ status }: { status: WebhookDeliveryRow["status"] }) {
  const t = useTranslations("webhooks");
  return <Badge tone={DELIVERY[status]}>{t(`delivery.${status}`)}</Badge>;
}
