import { readProblem } from "@/lib/i18n/problem";

// A delivery's `response_body` is the receiver's answer (data, shown as it came) or, when there was
// none to keep, why: a problem key the console wrote (lib/webhooks/send.ts, deliver.ts), or English
// words in rows written before. Pure: the page reads it with its reader's words.

const REASONS = /^webhooks\.(attempt|refused)\./;

/** Whether a stored `response_body` is the console's reason: a receiver that answered wrote the text, but for a timeout's. */
export function isAttemptReason(status: number | null, body: string): boolean {
  const key = readProblem(body)?.key;
  return key !== undefined && REASONS.test(key) && (status === null || key === "webhooks.attempt.timeout");
}

/** The Answer column's text: the console's reason in `words` (the reader's language), a receiver's answer as it is. */
export const answerText = (status: number | null, body: string, words: (text: string) => string): string => (isAttemptReason(status, body) ? words(body) : body);
