import "server-only";
import type { BranchScope } from "@/lib/auth/scope";
import { countDuplicateGroups } from "./duplicate-groups";

// The number of duplicate groups the subscriber list links to: counting them reads every flagged
// row, too much for every list page, so each process keeps it for a short while per scope
// (docs/decisions/0032-duplicates-decided-in-one-place.md). Its own changes forget it at once.

const KEEP_MS = 30_000;
const counts = new Map<string, { at: number; total: Promise<number> }>();

/** The scope's number of groups, read at most once per KEEP_MS in this process. */
export function duplicateGroupCount(scope: BranchScope): Promise<number> {
  const key = JSON.stringify(scope.branchIds);
  const kept = counts.get(key);
  if (kept && Date.now() - kept.at < KEEP_MS) return kept.total;
  const total = countDuplicateGroups(scope);
  counts.set(key, { at: Date.now(), total });
  total.catch(() => counts.delete(key)); // a failure is not remembered
  return total;
}

/** After a dismissal or a merge: the next list page counts again. */
export function forgetGroupCounts() {
  counts.clear();
}
