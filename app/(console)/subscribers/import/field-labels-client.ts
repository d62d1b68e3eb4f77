"use client";
import { useTranslations } from "next-intl";
import { fieldLabel } from "@/lib/subscribers/fields";

type Labels = { has: (key: string) => boolean; (key: string): string };

/** `getFieldLabels` (field-labels.ts) in a client component: `t(fieldName)` of the `fields` namespace. */
export function useFieldLabels(): (field: string) => string {
  // `fields` is the subscriber field catalogue's namespace; cast while it is not yet in every branch's en.json.
  const t = useTranslations("fields" as never) as unknown as Labels;
  return (field) => (t.has(field) ? t(field) : fieldLabel(field));
}
