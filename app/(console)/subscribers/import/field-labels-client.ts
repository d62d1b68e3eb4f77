"use client";
import { useTranslations } from "next-intl";
import { labelField } from "@/lib/subscribers/fields";

type Labels = { has: (key: string) => boolean; (key: string): string };

/** `getFieldLabels` (field-labels.ts) in a client component: `t(fieldName)` of the `fields` namespace. */
export function useFieldLabels(): (field: string) => string {
  const t = useTranslations("fields") as unknown as Labels;
  return (field) => labelField((key) => t(key.slice("fields.".length)), field);
}
