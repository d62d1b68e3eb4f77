// The console's own errors, recognised with `X.is(error)`, never `instanceof`: a process holds
// several copies of each class, one per layer of the build, so errors carry brands under a
// Symbol.for key (docs/decisions/0016-one-process-many-copies.md). Scripts and the proxy use it.

import { problem } from "@/lib/i18n/problem";

const BRANDS = Symbol.for("console.error.brands");

type Branded = { [BRANDS]?: unknown };

/** The brand a class declares itself (`static readonly brand`), not one it inherits. */
const ownBrand = (cls: unknown): string | undefined => {
  const brand = typeof cls === "function" ? Object.getOwnPropertyDescriptor(cls, "brand")?.value : undefined;
  return typeof brand === "string" ? brand : undefined;
};

/** A subclass names itself with `static readonly brand`; one without is recognised by class identity only. */
export class BrandedError extends Error {
  static readonly brand: string = "console.BrandedError";

  static is<C extends abstract new (...args: never[]) => BrandedError>(this: C, value: unknown): value is InstanceType<C> {
    const brand = ownBrand(this);
    if (brand === undefined) return value instanceof this;
    const brands = value !== null && typeof value === "object" ? (value as Branded)[BRANDS] : undefined;
    return Array.isArray(brands) && brands.includes(brand);
  }

  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    const brands: string[] = [];
    for (let cls: unknown = new.target; typeof cls === "function" && cls !== Error; cls = Object.getPrototypeOf(cls)) {
      const brand = ownBrand(cls);
      if (brand !== undefined) brands.push(brand);
    }
    Object.defineProperty(this, BRANDS, { value: brands, enumerable: false });
  }
}

/** Errors that carry their HTTP meaning; everything else is a 500 with a generic message. */
export class AppError extends BrandedError {
  static readonly brand: string = "console.AppError";

  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503,
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

// What a 404 names, as callers write it, and its option of `problems.http.notFound` (one sentence
// per record, so each language can agree its words with the record's gender).
const NOT_FOUND = {
  "The branch": "branch",
  "The subscriber": "subscriber",
  "The user": "user",
  "The view": "view",
  "The token": "token",
  "The merge": "merge",
  "The bulk change": "bulkChange",
  "The delivery": "delivery",
  "The export file": "exportFile",
  "The import": "import",
  "The rejected rows' file": "rejectedRows",
  "The webhook endpoint": "webhookEndpoint",
  "The branch in the trash": "trashedBranch",
  "The subscriber in the trash": "trashedSubscriber",
  "A person with this email or mobile": "person",
} as const;
export type NotFoundWhat = keyof typeof NOT_FOUND;

export const notFound = (what: NotFoundWhat) => new AppError(404, "not_found", problem("http.notFound", { what: NOT_FOUND[what] }));
export const conflict = (message: string, fields?: Record<string, string[]>) =>
  new AppError(409, "conflict", message, fields);
export const badRequest = (message: string, fields?: Record<string, string[]>) =>
  new AppError(400, "bad_request", message, fields);
