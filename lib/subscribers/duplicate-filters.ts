import { z } from "zod";
import { optionParam, pageParam, textParam } from "@/lib/list/params";

// The duplicates review's one parser, for the page and the API (docs/API.md, "Duplicates: review
// and merge"); light, as the proxy checks list queries with it. Bodies: duplicate-schema.ts.

/** Which key a group shares: the email (trimmed, any case) or the mobile (E.164). */
export const DUPLICATE_RULES = ["email", "mobile"] as const;
export type DuplicateRule = (typeof DUPLICATE_RULES)[number];

export const duplicateFiltersSchema = z.object({
  page: pageParam,
  rule: optionParam(DUPLICATE_RULES, "rule"),
  /** The subscriber list's search, applied to the groups' members. */
  q: textParam,
});
export type DuplicateFilters = z.output<typeof duplicateFiltersSchema>;
