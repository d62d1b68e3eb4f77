import Link from "next/link";
import type { ListProblem } from "@/lib/list/outcome";
import { PER_PAGE, shownRange, type Pagination } from "@/lib/list/pagination";
import { withParams, type RawParams } from "@/lib/list/params";
import { buttonClass } from "@/components/ui/button-styles";
import { LIST_NOUNS, type ListNoun } from "./nouns";
import { useListWords, useProblemText } from "./words";
// Its words are useTranslations("list")'s, through useListWords (English outside any provider).

/** "Showing 11–20 of 245 branches": `noun` names the rows (list.nouns), counted in the reader's language. */
export function ResultSummary({ pagination, rows, noun }: { pagination: Pagination; rows: number; noun: ListNoun }) {
  const t = useListWords();
  const { from, to, total } = shownRange(pagination, rows);
  const items = t(`nouns.${noun}`, { count: total });
  return (
    <p className="text-sm text-slate-600" role="status" aria-live="polite">
      {total === 0 || rows === 0 ? items : t("summary.showing", { from, to, items })}
    </p>
  );
}
export { LIST_NOUNS, type ListNoun };

export function EmptyState({ title, children, action }: { title: string; children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <div className="mx-auto mt-2 max-w-md text-sm text-slate-600">{children}</div>
      {action ? <div className="mt-6 flex justify-center gap-3">{action}</div> : null}
    </div>
  );
}

/** Links to the list's first page and (when there is another) its last, page `length`. */
function FirstAndLastPage({ params, path, length }: { params: RawParams; path: string; length: number }) {
  const t = useListWords();
  return (
    <>
      <Link className={buttonClass.secondary} href={`${path}${withParams(params, { page: undefined })}`}>
        {t("pages.first")}
      </Link>
      {length > 1 ? (
        <Link className={buttonClass.primary} href={`${path}${withParams(params, { page: length })}`}>
          {t("pages.last", { page: length })}
        </Link>
      ) : null}
    </>
  );
}

/** A page number past the last page: say so and link back. */
export function PastLastPage({ pagination, params, path }: { pagination: Pagination; params: RawParams; path: string }) {
  const t = useListWords();
  return (
    <EmptyState title={t("pages.none", { page: pagination.page })} action={<FirstAndLastPage params={params} path={path} length={pagination.length} />}>
      {pagination.total === 0 ? t("pages.nothingMatches") : t("pages.matches", { total: pagination.total, pages: pagination.length })}
    </EmptyState>
  );
}

/**
 * The query could not be read (page=abc, an unknown option…): explain each problem and link back.
 * `fields`: the parse's problems (ParseResult's `problems`), put into the reader's words here.
 */
export function InvalidQuery({ fields, path, params }: { fields: Record<string, string[]>; path: string; params: RawParams }) {
  const t = useListWords();
  const words = useProblemText();
  const cleaned = Object.fromEntries(Object.entries(params).filter(([key]) => !Object.hasOwn(fields, key)));
  return (
    <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-6 py-8">
      <h2 className="text-base font-semibold text-amber-900">{t("invalid.title")}</h2>
      <ul className="mt-3 list-inside list-disc space-y-1 text-sm text-amber-900">
        {Object.entries(fields).map(([key, messages]) => (
          <li key={key}>
            {/* The parameter's name as the address spells it: left to right in any language. */}
            <bdi dir="ltr" className="font-mono">
              {key}
            </bdi>
            {t("invalid.separator")}
            {messages.map(words).join(" ")}
          </li>
        ))}
      </ul>
      <div className="mt-6 flex flex-wrap gap-3">
        <Link className={buttonClass.primary} href={`${path}${withParams(cleaned, { page: undefined })}`}>
          {t("invalid.drop")}
        </Link>
        <Link className={buttonClass.secondary} href={path}>
          {t("invalid.startOver")}
        </Link>
      </div>
    </div>
  );
}

const PROBLEM_TITLES = { too_deep: "problem.tooDeep", too_many: "problem.tooMany", timeout: "problem.timeout", busy: "problem.busy", cancelled: "problem.cancelled" } as const;

/** A list not shown for a reason the user can act on (lib/list/outcome.ts): its title by kind, its message in the reader's words. */
export function ListProblemNotice({ problem, params, path }: { problem: ListProblem; params: RawParams; path: string }) {
  const t = useListWords();
  const words = useProblemText();
  return (
    <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-6 py-8">
      <h2 className="text-base font-semibold text-amber-900">{t(PROBLEM_TITLES[problem.kind])}</h2>
      <p className="mt-2 text-sm text-amber-900">{words(problem.message)}</p>
      <div className="mt-6 flex flex-wrap gap-3">
        {problem.kind === "too_deep" ? (
          <FirstAndLastPage params={params} path={path} length={problem.total === null ? 0 : Math.ceil(problem.total / PER_PAGE)} />
        ) : (
          <Link className={buttonClass.primary} href={`${path}${withParams(params, {})}`}>
            {t("problem.tryAgain")}
          </Link>
        )}
      </div>
    </div>
  );
}
