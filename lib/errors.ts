// The console's own errors, recognised with `X.is(error)`, never `instanceof`: a process holds
// several copies of each class, one per layer of the build, so errors carry brands under a
// Symbol.for key (docs/decisions/0016-one-process-many-copies.md). Scripts and the proxy use it.

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

export const notFound = (what: string) => new AppError(404, "not_found", `${what} was not found.`);
export const conflict = (message: string, fields?: Record<string, string[]>) =>
  new AppError(409, "conflict", message, fields);
export const badRequest = (message: string, fields?: Record<string, string[]>) =>
  new AppError(400, "bad_request", message, fields);
