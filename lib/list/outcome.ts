import "server-only";
import { databaseAppError, isQueryCancelled } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { problem } from "@/lib/i18n/problem";
import { PageTooDeepError, reachablePages } from "./depth";

// What a list page shows, in place of the table, when its query was refused or stopped for a reason the user can act on.

export type ListProblem = {
  kind: "too_deep" | "too_many" | "timeout" | "busy" | "cancelled";
  /** In English, for logs and tests; the page titles it by `kind` (list.problem) in its reader's words. */
  title: string;
  /** A problem key (lib/i18n/problem.ts) or words already, put into the reader's words where shown. */
  message: string;
  /** The list's total when it is known (a page too deep). */
  total: number | null;
};

export type ListOutcome<T> = { ok: true; value: T } | { ok: false; problem: ListProblem };

export function listProblem(error: unknown): ListProblem | null {
  if (PageTooDeepError.is(error)) {
    const { head, tail } = reachablePages(error.total);
    return { kind: "too_deep", title: "This page is too deep into the list", message: problem("list.pageTooDeep", { from: head + 1, to: tail - 1, total: error.total }), total: error.total };
  }
  if (AppError.is(error) && error.status === 429) {
    return { kind: "too_many", title: "Too many lists loading at once", message: error.message, total: null };
  }
  const known = databaseAppError(error);
  if (known?.code === "query_timeout") return { kind: "timeout", title: "This list took too long", message: known.message, total: null };
  if (known) return { kind: "busy", title: "The console is busy", message: known.message, total: null };
  // The client went away and the query was cancelled (server.ts): nobody reads this, nothing to log.
  if (isQueryCancelled(error)) return { kind: "cancelled", title: "This list was cancelled", message: problem("list.cancelled"), total: null };
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
