/** The "already known" warning under the email or mobile field (a warning, not an error). */
import type { DuplicateWarning } from "@/lib/subscribers/mutations";

/** "elsewhere": a match in a branch outside the user's scope, told without its id. */
export function DuplicateNote({ field, id }: { field: "email" | "mobile"; id: DuplicateWarning }) {
  return (
    <p role="status" aria-live="polite" className={id === null ? "sr-only" : "-mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"}>
      {id === null
        ? ""
        : `A subscriber with this ${field === "email" ? "email" : "mobile number"} already exists (${id === "elsewhere" ? "in another branch" : `#${id}`}). You can still create this one: it will be marked as a duplicate.`}
    </p>
  );
}
