import { AppError } from "@/lib/errors";
import { formatCount } from "@/lib/format";
import { PER_PAGE } from "./pagination";

// How deep a list page may reach: at most MAX_SKIP rows are skipped, reading near the end
// backwards and answering 400 page_too_deep in between, so no page number makes a query costly
// (docs/decisions/0010-no-user-can-starve-the-others.md).

export const MAX_SKIP = 100_000;
let maxSkip = MAX_SKIP;

/** A filter that reads every row and matches at most this many is answered from the ids that read found. */
const FEW_MATCHES = 5_000;
let fewMatches = FEW_MATCHES;
export const fewMatchesLimit = () => fewMatches;

/** Tests page through small lists with small limits (undefined restores the defaults). */
export function setListLimitsForTests(limits: { maxSkip?: number; fewMatches?: number } = {}) {
  maxSkip = limits.maxSkip ?? MAX_SKIP;
  fewMatches = limits.fewMatches ?? FEW_MATCHES;
}

/** The rows of one page: skip `offset` rows in the list's order (or in the reverse order), take `limit`. */
export type PageWindow = { offset: number; limit: number; reverse: boolean };

export const offsetOf = (page: number) => (page - 1) * PER_PAGE;

/** The window of a page that may be read before its total is known (null: wait for the total). */
export function shallowWindow(page: number): PageWindow | null {
  const offset = offsetOf(page);
  return offset <= maxSkip ? { offset, limit: PER_PAGE, reverse: false } : null;
}

/** The window of a page once the total is known: null past the end; a 400 when too deep both ways. */
export function windowFor(page: number, total: number): PageWindow | null {
  const offset = offsetOf(page);
  if (offset >= total) return null;
  if (offset <= maxSkip) return { offset, limit: PER_PAGE, reverse: false };
  const limit = Math.min(PER_PAGE, total - offset);
  const after = total - offset - limit; // rows after this page
  if (after <= maxSkip) return { offset: after, limit, reverse: true };
  throw new PageTooDeepError(total);
}

/** The pages a list of `total` rows shows: 1..head from the start, tail..length from the end. */
export function reachablePages(total: number) {
  const length = Math.ceil(total / PER_PAGE);
  const head = Math.floor(maxSkip / PER_PAGE) + 1; // the last page read from the start
  const tail = Math.max(head + 1, Math.ceil((total - maxSkip) / PER_PAGE)); // the first read from the end
  return { length, head, tail };
}

/** 400 for a page between the first and the last MAX_SKIP rows; it carries the list's total. */
export class PageTooDeepError extends AppError {
  static readonly brand: string = "console.PageTooDeepError";

  constructor(readonly total: number) {
    const { length, head, tail } = reachablePages(total);
    super(
      400,
      "page_too_deep",
      `Pages ${formatCount(head + 1)} to ${formatCount(tail - 1)} of these ${formatCount(total)} records cannot be shown. Narrow the filters, or go to the first or last pages.`,
      { page: [`Only pages 1–${formatCount(head)} and ${formatCount(tail)}–${formatCount(length)} can be shown for this list.`] },
    );
  }
}

/** A page and its total, bounded whatever the page number; `rows` reads a window, `count` the total. */
export async function readPage<R>(
  page: number,
  rows: (window: PageWindow) => Promise<R[]>,
  count: () => Promise<number>,
): Promise<{ data: R[]; total: number }> {
  const shallow = shallowWindow(page);
  if (shallow) {
    const [data, total] = await Promise.all([rows(shallow), count()]);
    return { data, total };
  }
  const total = await count();
  const window = windowFor(page, total);
  if (!window) return { data: [], total };
  const data = await rows(window);
  return { data: window.reverse ? data.reverse() : data, total };
}

/** The direction to read a window in. */
export const readDirection = (direction: "asc" | "desc", window: PageWindow): "asc" | "desc" =>
  window.reverse ? (direction === "asc" ? "desc" : "asc") : direction;
