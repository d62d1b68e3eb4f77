import "server-only";
import { databaseAppError, isQueryCancelled } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { PageTooDeepError } from "./depth";

// What a list page shows, in place of the table, when its query was refused or stopped for a reason the user can act on.

export type ListProblem = {
  kind: "too_deep" | "too_many" | "timeout" | "busy" | "cancelled";
  title: string;
  message: string;
  /** The list's total when it is known (a page too deep). */
  total: number | null;
};

export type ListOutcome<T> = { ok: true; value: T } | { ok: false; problem: ListProblem };

export function listProblem(error: unknown): ListProblem | null {
  if (PageTooDeepError.is(error)) return { kind: "too_deep", title: "This page is too deep into the list", message: error.message, total: error.total };
  if (AppError.is(error) && error.status === 429) {
    return { kind: "too_many", title: "Too many lists loading at once", message: error.message, total: null };
  }
  const known = databaseAppError(error);
  if (known?.code === "query_timeout") return { kind: "timeout", title: "This list took too long", message: known.message, total: null };
  if (known) return { kind: "busy", title: "The console is busy", message: known.message, total: null };
  // The client went away and the query was cancelled (server.ts): nobody reads this, nothing to log.
  if (isQueryCancelled(error)) return { kind: "cancelled", title: "This list was cancelled", message: "The request was cancelled before the list was read.", total: null };
  return null;
}

/** Runs a list's query; a problem the user can act on comes back as a value, anything else is thrown. */
export async function listOutcome<T>(work: () => Promise<T>): Promise<ListOutcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    const problem = listProblem(error);
    if (!problem) throw error;
    return { ok: false, problem };
  }
}
