import { ZxcvbnFactory, type ZxcvbnResult } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as en from "@zxcvbn-ts/language-en";
import { PASSWORD_MAX, passwordShape } from "./password-rule";

// The one password rule, for every way a password is set (the set-password link, /account,
// `npm run user:create`, an admin's initial password): at least 12 characters, at most 200 (the
// sign-in form's limit), and not guessable. "Guessable" is zxcvbn's estimate (@zxcvbn-ts, run
// here, offline): it knows 49,000 common and breached passwords (language-common's
// passwords-common list, with their l33t, case, reversed and year variations), English words,
// names, keyboard walks and sequences, and the user's own name and email. A score below 3
// ("safely unguessable: moderate protection from offline attacks") is refused with its advice.
// The browser shows the same estimate as a hint while typing (components/password-strength.tsx).

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
