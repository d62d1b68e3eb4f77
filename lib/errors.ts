/** Errors that carry their HTTP meaning; everything else is a 500 with a generic message. */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string[]>,
    /** Seconds for the Retry-After header of a 429 or 503. */
    readonly retryAfter?: number,
    /** More members of the error's answer (e.g. the record as it is now, with a 409). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new AppError(404, "not_found", `${what} was not found.`);
export const conflict = (message: string, fields?: Record<string, string[]>) =>
  new AppError(409, "conflict", message, fields);
export const badRequest = (message: string, fields?: Record<string, string[]>) =>
  new AppError(400, "bad_request", message, fields);
