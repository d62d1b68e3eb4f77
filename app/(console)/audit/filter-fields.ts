import type { ListFilters } from "@/components/list/filter-bar";
import { auditActionOptions, type AuditWords } from "@/lib/audit/describe";
import { AUDIT_FILTER_KEYS } from "@/lib/audit/filters";

/** The audit log's toolbar: who did it in front, docs/API.md's other filters behind Filters, in the reader's language. */
export const auditToolbar = (w: AuditWords): ListFilters => ({
  search: { kind: "text", name: "actor", label: w.t("audit.filter.who"), placeholder: w.t("audit.filter.whoPlaceholder") },
  fields: [
    { kind: "select", name: "action", label: w.t("audit.filter.action"), options: auditActionOptions(w) },
    { kind: "text", name: "entity_id", label: w.t("audit.filter.recordId"), placeholder: w.t("audit.filter.recordIdPlaceholder") },
    { kind: "text", name: "ip", label: w.t("audit.filter.from"), placeholder: w.t("audit.filter.fromPlaceholder") },
    { kind: "dateRange", label: w.t("audit.filter.when"), from: "at_from", to: "at_to" },
  ],
  keys: AUDIT_FILTER_KEYS,
});
