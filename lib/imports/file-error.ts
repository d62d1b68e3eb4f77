import { AppError } from "@/lib/errors";
import { english } from "./words";

/**
 * An import's refusal: its message the reason in English (the API's, a log's, what its tests read),
 * `problem` the same as a problem key, which a failed import keeps and an action says in the
 * reader's words (lib/imports/words.ts).
 */
export class ImportRefusal extends AppError {
  static readonly brand: string = "console.ImportRefusal";

  readonly problem: string;

  constructor(status: AppError["status"], code: string, problem: string) {
    super(status, code, english(problem));
    this.problem = problem;
  }
}

/** A file that cannot be imported at all: 400 `invalid_file` with the reason, nothing kept. */
export class ImportFileError extends ImportRefusal {
  static readonly brand: string = "console.ImportFileError";

  constructor(problem: string) {
    super(400, "invalid_file", problem);
  }
}

/** A refusal as an action answers it: its problem key, put into the reader's words by `action()`. */
export function asProblem(error: unknown): unknown {
  return ImportRefusal.is(error) ? new AppError(error.status, error.code, error.problem) : error;
}
