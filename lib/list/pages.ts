import type { z } from "zod";
import { activityFiltersSchema } from "@/lib/activity/schema";
import { auditFiltersSchema } from "@/lib/audit/filters";
import { branchFiltersSchema } from "@/lib/branches/filters";
import { duplicateFiltersSchema } from "@/lib/subscribers/duplicate-filters";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { trashPageSchema } from "@/lib/trash/filters";
import { userFiltersSchema } from "@/lib/users/filters";
import { viewsPageSchema } from "@/lib/views/schema";
import { webhookListQuerySchema } from "@/lib/webhooks/schema";
import { parseWith } from "./parse";

// Each list page and its schema. A streaming page cannot set its status, so the proxy asks here
// first and a refused query answers 400 while the page explains it. Runtime-neutral: the proxy imports it.

const LIST_PAGES: Record<string, z.ZodType> = {
  "/subscribers": subscriberFiltersSchema,
  "/subscribers/duplicates": duplicateFiltersSchema,
  "/branches": branchFiltersSchema,
  "/users": userFiltersSchema,
  "/audit": auditFiltersSchema,
  "/trash": trashPageSchema,
  "/views": viewsPageSchema,
  "/activity": activityFiltersSchema,
  "/webhooks": webhookListQuerySchema,
};

/** Whether `pathname` is a list page whose query its schema refuses (the page then explains why). */
export function refusedListQuery(pathname: string, query: URLSearchParams): boolean {
  const schema = Object.hasOwn(LIST_PAGES, pathname) ? LIST_PAGES[pathname] : undefined;
  return schema !== undefined && !parseWith(schema, query).ok;
}
