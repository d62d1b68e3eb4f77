import { z } from "zod";

// The pager's arithmetic, in one pure function (docs/SPEC.md: 10 rows a page, a pager only when there
// are more than 10 matches, at most 7 page buttons at once).

export const PER_PAGE = 10;
export const MAX_PAGE_BUTTONS = 7;

export const paginationSchema = z
  .object({ total: z.number().int(), length: z.number().int(), page: z.number().int(), per_page: z.number().int() })
  .meta({ id: "Pagination" });
export type Pagination = z.output<typeof paginationSchema>;

/** A list answer (docs/API.md): one page of records and the pager's numbers. */
export const listAnswer = <T extends z.ZodType>(record: T) => z.object({ data: z.array(record), pagination: paginationSchema });

export function pagination(total: number, page: number): Pagination {
  return { total, length: Math.ceil(total / PER_PAGE), page, per_page: PER_PAGE };
}

/** Whether the pager shows at all. */
export const showsPager = (total: number) => total > PER_PAGE;

/**
 * The page numbers to show, at most `max`: every page when they fit, else the first and the last
 * with the pages around the current one between them (centred where possible, clamped to 1..length).
 */
export function pageWindow(current: number, length: number, max = MAX_PAGE_BUTTONS): number[] {
  if (length < 1 || max < 1) return [];
  if (length <= max) return Array.from({ length }, (_, i) => i + 1);
  if (max < 3) return [1, length].slice(0, max);
  const page = Math.min(Math.max(1, Math.trunc(current)), length);
  const inner = max - 2;
  const start = Math.min(Math.max(2, page - Math.floor((inner - 1) / 2)), length - inner);
  return [1, ...Array.from({ length: inner }, (_, i) => start + i), length];
}

/** "Showing 11–20 of 245" numbers; `from` is 0 when the page is empty. */
export function shownRange(p: Pagination, rowCount: number) {
  const from = rowCount ? (p.page - 1) * p.per_page + 1 : 0;
  return { from, to: rowCount ? from + rowCount - 1 : 0, total: p.total };
}
