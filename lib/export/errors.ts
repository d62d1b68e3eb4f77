import { conflict } from "@/lib/errors";

export const alreadyQueued = () =>
  conflict("An export is already being prepared. Wait until it is ready before requesting another one.");

/** PostgreSQL's unique_violation (the one-in_queue-export-per-user index). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23505";
}
