import type { z } from "zod";
import { auditFiltersSchema } from "@/lib/audit/filters";
import { branchFiltersSchema } from "@/lib/branches/filters";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { userFiltersSchema } from "@/lib/users/filters";
import { parseWith } from "./params";

// The list pages and the one schema each reads its address with (lib/<resource>/filters.ts, the
// same the JSON API and the export use). A page streams, so it cannot set its own status once it
// renders: the proxy asks here first, and a query the schema refuses answers 400 while the page
// renders its explanation of each bad value (components/list/list-states.tsx, InvalidQuery), as
// the API answers 400 naming them. Runtime-neutral: the proxy imports it.

const LIST_PAGES: Record<string, z.ZodType> = {
  "/subscribers": subscriberFiltersSchema,
  "/branches": branchFiltersSchema,
  "/users": userFiltersSchema,
  "/audit": auditFiltersSchema,
};

/** Whether `pathname` is a list page whose query its schema refuses (the page then explains why). */
export function refusedListQuery(pathname: string, query: URLSearchParams): boolean {
  const schema = Object.hasOwn(LIST_PAGES, pathname) ? LIST_PAGES[pathname] : undefined;
  return schema !== undefined && !parseWith(schema, query).ok;
}
