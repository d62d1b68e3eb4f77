import { problem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";

// Why the console turned an endpoint off is kept in English words (the endpoint's row, its audit
// entry, the API), as it always has been: the pages read the sentence back as its problem key
// (problems.webhooks.disabledReason) and say it in the reader's language.

/** The reason in the words kept: "Every delivery failed for 3 days (last: 500)." */
export const disabledReason = (days: number, last: string) => problemsIn("en")(problem("webhooks.disabledReason", { days, last }));

const KEPT = /^Every delivery failed for (\d+) days? \(last: (.*)\)\.$/s;

/** A kept reason as a problem, for the reader's words; any other text (an older or hand-written reason) stays as it is. */
export function disabledReasonProblem(text: string): string {
  const [, days, last] = KEPT.exec(text) ?? [];
  return days === undefined || last === undefined ? text : problem("webhooks.disabledReason", { days: Number(days), last });
}
