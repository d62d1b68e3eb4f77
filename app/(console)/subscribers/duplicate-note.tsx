/** The "already known" warning under the email or mobile field (a warning, not an error). */
import { useTranslations } from "next-intl";
import type { DuplicateWarning } from "@/lib/subscribers/mutations";

/** "elsewhere": a match in a branch outside the user's scope, told without its id. */
export function DuplicateNote({ field, id }: { field: "email" | "mobile"; id: DuplicateWarning }) {
  const t = useTranslations("subscribers.form");
  const place = id === "elsewhere" ? "elsewhere" : "here";
  return (
    <p role="status" aria-live="polite" className={id === null ? "sr-only" : "-mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"}>
      {id === null
        ? ""
        : field === "email"
          ? t("duplicateEmail", { place, id: String(id) })
          : t("duplicateMobile", { place, id: String(id) })}
    </p>
  );
}
