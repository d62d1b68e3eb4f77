import type { FieldValues, Path, UseFormSetError } from "react-hook-form";

/**
 * Puts an action's field errors on the form's own fields, in the form's order, focusing the first.
 * False when none of them is a field of the form (the caller then shows the form's error).
 */
export function placeFieldErrors<T extends FieldValues>(
  fieldErrors: Record<string, string[] | undefined> | undefined,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): boolean {
  let placed = false;
  for (const name of fields) {
    const message = fieldErrors?.[name]?.[0];
    if (!message) continue;
    setError(name, { message }, { shouldFocus: !placed });
    placed = true;
  }
  return placed;
}
