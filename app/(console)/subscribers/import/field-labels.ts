import "server-only";
import { getTranslations } from "next-intl/server";
import { labelField } from "@/lib/subscribers/fields";

type Labels = { has: (key: string) => boolean; (key: string): string };

/**
 * The subscriber fields' labels in the reader's language: the `fields` namespace of the catalogues,
 * each label `t(fieldName)` (the catalogue of English labels until a language has them).
 */
export async function getFieldLabels(): Promise<(field: string) => string> {
  const t = (await getTranslations("fields")) as unknown as Labels;
  return (field) => labelField((key) => t(key.slice("fields.".length)), field);
}
