import type { Metadata } from "next";
import Link from "next/link";
import { getProblemWords } from "@/lib/i18n/server";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { chipWords, filterChips } from "@/components/list/filter-chip-words";
import { buttonClass } from "@/components/ui/button-styles";
import { requirePageUser } from "@/lib/auth/page-guards";
import { databaseAppError, isQueryCancelled } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { withParams, type RawParams } from "@/lib/list/params";
import { heavy } from "@/lib/load/user-limit";
import { isScoped } from "@/lib/auth/scope";
import { config } from "@/lib/config";
import { problem as problemKey } from "@/lib/i18n/problem";
import { getFormats } from "@/lib/i18n/server";
import { countTarget, runsAtOnce, selectedNames } from "@/lib/subscribers/bulk";
import { MAX_SELECTION, changeFromChoice, type BulkTarget } from "@/lib/subscribers/bulk-schema";
import { listBack } from "@/lib/subscribers/back";
import { SUBSCRIBER_ADDRESS_KEYS, SUBSCRIBER_FILTER_KEYS } from "@/lib/subscribers/filters";
import { parseId } from "@/lib/validation/id";
import { subscriberToolbar } from "../filter-fields";
import { BulkConfirm } from "./bulk-confirm";
import { changeWords } from "./change-words";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("bulk.page");
  return { title: t("metaTitle") };
}

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
  const common = await getTranslations("common");
  const params = await searchParams;
  const user = await requirePageUser(`/subscribers/bulk${withParams(params, {})}`);
  const filters = picked(params, SUBSCRIBER_FILTER_KEYS);
  // Back to the list as it was (the list sends its whole address, page included), else its filters, sort, columns and view.
  const back = params.back === undefined ? `/subscribers${withParams(picked(params, SUBSCRIBER_ADDRESS_KEYS), {})}` : listBack(params.back);
  const change = changeFromChoice(typeof params.change === "string" ? params.change : undefined);
  const selected = [params.select ?? []].flat().map(parseId).filter((id): id is number => id !== null);
  const all = params.scope === "all";
  const t = await getTranslations("bulk.page");
  const f = await getFormats();
  const describe = await changeWords();

  const problem = !change
    ? t("chooseChange")
    : "delete" in change && user.role !== "admin"
      ? t("onlyAdminsDelete")
      : !all && selected.length === 0
        ? t("selectFirst")
        : !all && selected.length > MAX_SELECTION
          ? t("selectAtMost", { max: MAX_SELECTION })
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
      if (known) countProblem = (await getProblemWords())(known.message);
      else if (isQueryCancelled(error)) countProblem = (await getProblemWords())(problemKey("common.cancelled")); // its client has gone: nobody reads it
      else throw error;
    }
  }
  const message = problem ?? countProblem ?? (count === 0 ? t("nothingMatches") : null);
  const toolbar = subscriberToolbar(await getTranslations());
  // The list's own chip words ("From", "To", its days), so the chips read as on the list.
  const list = await getTranslations("list");
  const filterList = filterChips([toolbar.search, ...toolbar.fields], filters, chipWords(list, f.day, list("filterBar.erased")));

  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <nav aria-label={common("breadcrumb")} className="text-sm">
        <Link href={back} className="text-brand-700 hover:underline">
          {t("back")}
        </Link>
      </nav>
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      {message || !change ? (
        <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
          {message}
        </div>
      ) : (
        <section aria-labelledby="bulk-summary" className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="bulk-summary" className="text-lg font-semibold">
            {"delete" in change ? t("deleteHeading", { count, n: f.count(count) }) : t("changeHeading", { count, n: f.count(count), change: describe(change) })}
          </h2>
          <p className="text-sm text-slate-600" data-testid="bulk-which">
            {all
              ? t(filterList.length ? "whichFiltered" : "whichAll", { count, n: f.count(count), scoped: isScoped(scope) ? "yes" : "no" })
              : t.rich("whichSelected", {
                  count,
                  n: f.count(count),
                  more: count - names.length,
                  moreN: f.count(count - names.length),
                  names: () => names.map((name, i) => <span key={i}>{i ? t("separator") : ""}<bdi>{name}</bdi></span>),
                })}
          </p>
          {all && filterList.length ? (
            <ul aria-label={t("filtersLabel")} className="flex flex-wrap gap-2 text-xs">
              {filterList.map((chip) => (
                <li key={chip.key} className="rounded-full bg-slate-100 px-2.5 py-1 text-slate-700">
                  {t.rich("chip", { label: chip.label, value: chip.value, v: (chunks) => <bdi className="font-medium">{chunks}</bdi> })}
                </li>
              ))}
            </ul>
          ) : null}
          {"delete" in change ? (
            <p className="text-sm text-slate-700">
              {t("trash", { days: config().TRASH_RETENTION_DAYS })}
            </p>
          ) : null}
          {!runsAtOnce(target, change, count) ? (
            <p className="text-sm text-slate-600">{t("background")}</p>
          ) : null}
          <ClientMessages namespaces={["bulk.confirm"]}>
            <BulkConfirm target={target} change={change} count={count} back={back} />
          </ClientMessages>
        </section>
      )}
      <Link href={back} className={buttonClass.secondary}>
        {t("backToList")}
      </Link>
    </div>
  );
}
