import { createTranslator } from "use-intl/core";
import { describe, expect, it } from "vitest";
import { problemText, viewFields } from "@/app/(console)/views/toolbars";
import { catalogue } from "@/lib/i18n/catalogues";
import type { Locale } from "@/lib/i18n/locales";
import { listOf, problem, problemWords } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { fieldProblems, viewProblem, viewProblems } from "@/lib/views/queries";

// Why a saved view no longer opens, and why its list refuses a query or columns, are problem keys
// naming each field (problems.views.fieldRefused), said in the reader's language: the views page and
// menu in the page's, the API's `problem` and error in its Accept-Language, English by default.

const view = (resource: string, query: string, columns: string[] | null = null) => ({ resource, query, columns });
const BRANCH_FILTERS = "id, name, created_from, created_to, updated_from, updated_to, sort";

/** problemText as the views page calls it: the page's `problems` translator and the list's toolbar. */
const pageWords = (locale: Locale) => {
  const messages = catalogue(locale);
  const t = createTranslator({ locale, messages, namespace: "problems" }) as unknown as Parameters<typeof problemWords>[0];
  const fields = viewFields("subscribers", createTranslator({ locale, messages }), createTranslator({ locale, messages, namespace: "branches" }));
  return (v: ReturnType<typeof view>) => problemText({ problem: viewProblem(v), problems: viewProblems(v) }, (text) => problemWords(t, text), fields);
};

describe("a broken view's reason", () => {
  const oldStatus = view("subscribers", "subscription_status=archived&travel_date_from=2026-02-30");
  const wrongList = view("branches", "subscription_status=active");

  it("reads in English as it always did", () => {
    expect(viewProblem(oldStatus)).toBe("subscription_status: subscription_status must be one of: pending, active, expired, cancelled. travel_date_from: That date does not exist.");
    expect(viewProblem(wrongList)).toBe(`subscription_status: The branches list has no filter "subscription_status". Its filters are: ${BRANCH_FILTERS}.`);
    expect(viewProblem(view("regions", "north=1"))).toBe('The list "regions" no longer has saved views.');
  });

  it("reads in French and Arabic in the API's words, each field named", () => {
    expect(viewProblem(wrongList, problemsIn("fr"))).toBe(`subscription_status : La liste branches n’a pas de filtre "subscription_status". Ses filtres sont : ${BRANCH_FILTERS}.`);
    expect(viewProblem(wrongList, problemsIn("ar"))).toBe(`\u2068subscription_status\u2069: لا تحتوي القائمة branches على عامل التصفية "subscription_status". عوامل تصفيتها هي: ${BRANCH_FILTERS}.`);
    expect(viewProblem(oldStatus, problemsIn("fr"))).toBe(
      "subscription_status : subscription_status doit être l’une de ces valeurs : pending, active, expired, cancelled. travel_date_from : Cette date n’existe pas.",
    );
    expect(viewProblem(oldStatus, problemsIn("ar"))).toBe(
      "\u2068subscription_status\u2069: يجب أن تكون subscription_status إحدى القيم: pending, active, expired, cancelled. \u2068travel_date_from\u2069: هذا التاريخ غير موجود.",
    );
  });

  it("names each field on the page by its filter's label in the reader's language", () => {
    expect(pageWords("en")(oldStatus)).toBe("Status: subscription_status must be one of: pending, active, expired, cancelled. Travel date: That date does not exist.");
    expect(pageWords("fr")(oldStatus)).toBe("Statut : subscription_status doit être l’une de ces valeurs : pending, active, expired, cancelled. Date de voyage : Cette date n’existe pas.");
    expect(pageWords("ar")(oldStatus)).toBe("\u2068الحالة\u2069: يجب أن تكون subscription_status إحدى القيم: pending, active, expired, cancelled. \u2068تاريخ السفر\u2069: هذا التاريخ غير موجود.");
    // A key the list has no filter for is named as it is.
    expect(pageWords("fr")(view("subscribers", "region=north"))).toMatch(/^region : La liste subscribers n’a pas de filtre "region"\. Ses filtres sont : q, id, /);
    expect(pageWords("ar")(view("subscribers", "", ["id", "region"]))).toMatch(/^\u2068columns\u2069: ليست عمودًا في القائمة subscribers: region\. أعمدتها هي: id, /);
  });
});

describe("a refused query's message", () => {
  it("lists each field's problems, said with the message", () => {
    const refused = fieldProblems({ region: [problem("views.noSuchFilter", { resource: "branches", key: '"region"', filters: BRANCH_FILTERS })], page: [problem("views.noPage")] });
    const message = problem("views.queryRefused", { resource: "branches", problems: listOf(refused) });
    expect(problemsIn("en")(message)).toBe(`The branches list refuses this query: region: The branches list has no filter "region". Its filters are: ${BRANCH_FILTERS}. page: A view does not keep the page: leave page out.`);
    expect(problemsIn("fr")(message)).toBe(
      `La liste branches refuse cette requête : region : La liste branches n’a pas de filtre "region". Ses filtres sont : ${BRANCH_FILTERS}. page : Une vue ne garde pas la page : retirez page.`,
    );
    expect(problemsIn("ar")(message)).toBe(
      `ترفض القائمة branches هذا الاستعلام: \u2068region\u2069: لا تحتوي القائمة branches على عامل التصفية "region". عوامل تصفيتها هي: ${BRANCH_FILTERS}. \u2068page\u2069: لا تحتفظ طريقة العرض بالصفحة: احذف page.`,
    );
    expect(problemsIn("fr")(message)).not.toMatch(/views\./);
  });
});
