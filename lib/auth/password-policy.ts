import { ZxcvbnFactory, type ZxcvbnResult } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as en from "@zxcvbn-ts/language-en";
import { problem } from "@/lib/i18n/problem";
import { PASSWORD_MAX, passwordShape } from "./password-rule";

// The one password rule, for every way a password is set: long enough and not guessable by
// zxcvbn's offline estimate (the browser shows the same one while typing, components/password-strength.tsx).

const MIN_SCORE = 3;

// zxcvbn's feedback as the names of its sentences (`wStraightRow`, `sUseWords`), which the catalogues
// put into words (`problems.auth.passwordGuessable`, `passwordStrength.advice`), not its English.
const named = <G extends Record<string, string>>(prefix: string, group: G) =>
  Object.fromEntries(Object.keys(group).map((key) => [key, `${prefix}${key[0]!.toUpperCase()}${key.slice(1)}`])) as G;
const feedbackNames = {
  ...en.translations,
  warnings: named("w", en.translations.warnings),
  suggestions: named("s", en.translations.suggestions),
};

let factory: ZxcvbnFactory | undefined;
function estimator() {
  factory ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: feedbackNames,
  });
  return factory;
}

/** `warning` and `suggestions`: names of zxcvbn's sentences (see feedbackNames), put into words where shown. */
export type Strength = { score: number; acceptable: boolean; warning: string | null; suggestions: string[] };

function describe(result: Pick<ZxcvbnResult, "score" | "feedback">): Strength {
  return {
    score: result.score,
    acceptable: result.score >= MIN_SCORE,
    warning: result.feedback.warning,
    suggestions: result.feedback.suggestions,
  };
}

/** How guessable `password` is, knowing the user's name and email (they are the first guesses). */
export async function passwordStrength(password: string, userInputs: string[] = []): Promise<Strength> {
  const inputs = userInputs.flatMap((s) => [s, ...s.toLowerCase().split(/[^\p{L}\p{N}]+/u)]).filter((s) => s.length >= 3);
  return describe(await estimator().checkAsync(password.slice(0, PASSWORD_MAX), inputs));
}

/** What is wrong with `password` under the rule above, or null when it may be used. */
export async function passwordProblem(password: string, userInputs: string[] = []): Promise<string | null> {
  const shape = passwordShape.safeParse(password);
  if (!shape.success) return shape.error.issues[0]!.message;
  const strength = await passwordStrength(password, userInputs);
  if (strength.acceptable) return null;
  return problem("auth.passwordGuessable", { advice: strength.warning ?? strength.suggestions[0] ?? "other" });
}
