import { conflict } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";

export const alreadyQueued = () =>
  conflict(problem("export.alreadyQueued"));

/** PostgreSQL's unique_violation (the one-in_queue-export-per-user index). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23505";
}
