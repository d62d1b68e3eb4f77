import { ZxcvbnFactory, type ZxcvbnResult } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as en from "@zxcvbn-ts/language-en";
import { PASSWORD_MAX, passwordShape } from "./password-rule";

// The one password rule, for every way a password is set: long enough and not guessable by
// zxcvbn's offline estimate (the browser shows the same one while typing, components/password-strength.tsx).

const MIN_SCORE = 3;

let factory: ZxcvbnFactory | undefined;
function estimator() {
  factory ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
  });
  return factory;
}

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
  const advice = strength.warning ?? strength.suggestions[0] ?? "Add more words or characters that do not follow a pattern.";
  return `This password is too easy to guess. ${advice}`;
}
