import type { Metadata } from "next";
import Link from "next/link";
import { filterChips } from "@/components/list/filter-chip-words";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageUser } from "@/lib/auth/page-guards";
import { databaseAppError, isQueryCancelled } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { withParams, type RawParams } from "@/lib/list/params";
import { heavy } from "@/lib/load/user-limit";
import { isScoped } from "@/lib/auth/scope";
import { config } from "@/lib/config";
import { formatCount } from "@/lib/format";
import { countTarget, runsAtOnce, selectedNames } from "@/lib/subscribers/bulk";
import { MAX_SELECTION, changeFromChoice, describeChange, type BulkTarget } from "@/lib/subscribers/bulk-schema";
import { listBack } from "@/lib/subscribers/back";
import { SUBSCRIBER_ADDRESS_KEYS, SUBSCRIBER_FILTER_KEYS } from "@/lib/subscribers/filters";
import { parseId } from "@/lib/validation/id";
import { FIELDS, SEARCH } from "../filter-fields";
import { BulkConfirm } from "./bulk-confirm";

export const metadata: Metadata = { title: "Change subscribers" };

const noun = (count: number) => `${formatCount(count)} subscriber${count === 1 ? "" : "s"}`;

/** These keys of the list's address, as it spells them: its filters (what the change takes), or all of it (where it goes back to). */
function picked(params: RawParams, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const value = params[key];
    if (typeof value === "string" && value.trim()) out[key] = value.trim();
  }
  return out;
}

/** The confirmation of a bulk change: a plain GET from the list, so it works without JavaScript. */
export default async function BulkChangePage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const user = await requirePageUser(`/subscribers/bulk${withParams(params, {})}`);
  const filters = picked(params, SUBSCRIBER_FILTER_KEYS);
  // Back to the list as it was (the list sends its whole address, page included), else its filters, sort, columns and view.
  const back = params.back === undefined ? `/subscribers${withParams(picked(params, SUBSCRIBER_ADDRESS_KEYS), {})}` : listBack(params.back);
  const change = changeFromChoice(typeof params.change === "string" ? params.change : undefined);
  const selected = [params.select ?? []].flat().map(parseId).filter((id): id is number => id !== null);
  const all = params.scope === "all";

  const problem = !change
    ? "Choose what to change (a status, the mandatory flag or, for administrators, deleting)."
    : "delete" in change && user.role !== "admin"
      ? "Only administrators delete subscribers."
      : !all && selected.length === 0
        ? "Select subscribers first (the boxes at the start of each row), or change all that match the filters."
        : !all && selected.length > MAX_SELECTION
          ? `Select at most ${MAX_SELECTION} subscribers, or change all that match the filters.`
          : null;
  const target: BulkTarget = all ? { filters } : { ids: [...new Set(selected)] };
  const scope = user.scope;
  let count = 0;
  let names: string[] = [];
  let countProblem: string | null = null;
  if (!problem) {
    try {
      // As costly as the list's total: within the user's limit of heavy requests, like the list.
      count = await heavy(user.id, () => countTarget(scope, target));
      if ("ids" in target) names = await selectedNames(scope, target.ids);
    } catch (error) {
      // Said in place of the summary.
      const known = AppError.is(error) ? error : databaseAppError(error);
      if (known) countProblem = known.message;
      else if (isQueryCancelled(error)) countProblem = "The request was cancelled."; // its client has gone: nobody reads it
      else throw error;
    }
  }
  const message = problem ?? countProblem ?? (count === 0 ? "No subscriber matches: nothing would change." : null);
  const filterList = filterChips([SEARCH, ...FIELDS], filters);

  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href={back} className="text-brand-700 hover:underline">
          ← Subscribers
        </Link>
      </nav>
      <h1 className="text-2xl font-semibold tracking-tight">Change subscribers</h1>
      {message || !change ? (
        <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
          {message}
        </div>
      ) : (
        <section aria-labelledby="bulk-summary" className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="bulk-summary" className="text-lg font-semibold">
            {"delete" in change
              ? `Delete ${noun(count)}?`
              : `${noun(count)} will change: ${describeChange(change)}`}
          </h2>
          <p className="text-sm text-slate-600" data-testid="bulk-which">
            {all
              ? filterList.length
                ? `All ${noun(count)}${isScoped(scope) ? " of your branches" : ""} matching these filters (as they match when the change runs):`
                : isScoped(scope)
                  ? `All ${noun(count)} of your branches: no filter is set.`
                  : `All ${noun(count)}: no filter is set.`
              : <>{count === 1 ? "The subscriber you selected: " : `The ${noun(count)} you selected: `}{names.map((name, i) => <span key={i}>{i ? ", " : ""}<bdi>{name}</bdi></span>)}{count > names.length ? ` and ${formatCount(count - names.length)} more` : ""}.</>}
          </p>
          {all && filterList.length ? (
            <ul aria-label="The change's filters" className="flex flex-wrap gap-2 text-xs">
              {filterList.map((chip) => (
                <li key={chip.key} className="rounded-full bg-slate-100 px-2.5 py-1 text-slate-700">
                  {chip.label}: <bdi className="font-medium">{chip.value}</bdi>
                </li>
              ))}
            </ul>
          ) : null}
          {"delete" in change ? (
            <p className="text-sm text-slate-700">
              {`They go to the trash: you can restore them from it for ${config().TRASH_RETENTION_DAYS} days, or undo this deletion from its page.`}
            </p>
          ) : null}
          {!runsAtOnce(target, change, count) ? (
            <p className="text-sm text-slate-600">It runs in the background in batches; you can follow its progress.</p>
          ) : null}
          <BulkConfirm target={target} change={change} count={count} back={back} />
        </section>
      )}
      <Link href={back} className={buttonClass.secondary}>
        Back to the list
      </Link>
    </div>
  );
}
