import "server-only";
import { getTranslations } from "next-intl/server";
import { fieldLabel } from "@/lib/subscribers/fields";

type Labels = { has: (key: string) => boolean; (key: string): string };

/**
 * The subscriber fields' labels in the reader's language: the `fields` namespace of the catalogues,
 * each label `t(fieldName)` (the catalogue of English labels until a language has them).
 */
export async function getFieldLabels(): Promise<(field: string) => string> {
  // `fields` is the subscriber field catalogue's namespace; cast while it is not yet in every branch's en.json.
  const t = (await getTranslations("fields" as never)) as unknown as Labels;
  return (field) => (t.has(field) ? t(field) : fieldLabel(field));
}
