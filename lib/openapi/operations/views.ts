import { activityFiltersSchema, activitySchema } from "@/lib/activity/schema";
import { listAnswer } from "@/lib/list/pagination";
import { idPathParams } from "@/lib/validation/id";
import { viewCreateSchema, viewListQuerySchema, viewPatchSchema, viewSchema } from "@/lib/views/schema";
import { operation } from "../operation";

const tag = "Views";

// Saved views (docs/decisions/0027-saved-views.md): API tokens read them and never change them.

export const viewsApi = {
  list: operation({
    method: "get", path: "/api/v1/views", tag, summary: "Your views and the shared ones, by name", access: "signed_in", tokenScope: "read",
    description: "10 a page, like every list.",
    query: viewListQuerySchema,
    answers: { 200: listAnswer(viewSchema) },
  }),
  create: operation({
    method: "post", path: "/api/v1/views", tag, summary: "Save a view", access: "signed_in",
    description:
      "The query is checked by its list's own filter parser: 400 naming a bad key or value. 409 `conflict` when you already have a view of that name for that list; " +
      "409 `too_many_views` when you already keep VIEWS_PER_USER views of that list (default 50): delete one first.",
    body: viewCreateSchema,
    answers: { 201: viewSchema },
    errors: [409],
  }),
  get: operation({
    method: "get", path: "/api/v1/views/{id}", tag, summary: "Read a view", access: "signed_in", tokenScope: "read",
    description: "Someone else's private view is a 404.",
    params: idPathParams,
    answers: { 200: viewSchema },
  }),
  update: operation({
    method: "patch", path: "/api/v1/views/{id}", tag, summary: "Change a view", access: "signed_in",
    description: "Its owner, or an administrator for a shared view (403 for staff). 409 when the new name is taken.",
    params: idPathParams,
    body: viewPatchSchema,
    answers: { 200: viewSchema },
    errors: [409],
  }),
  delete: operation({
    method: "delete", path: "/api/v1/views/{id}", tag, summary: "Delete a view", access: "signed_in",
    description: "Its owner, or an administrator for a shared view (403 for staff).",
    params: idPathParams,
    answers: { 204: null },
  }),
};

export const activityApi = {
  list: operation({
    method: "get", path: "/api/v1/activity", tag: "Activity", summary: "Your recent changes", access: "signed_in", tokenScope: "read",
    description:
      "Your bulk changes, imports, exports, merges and deletions (to the trash), newest first, 10 a page, each with `can_undo`. " +
      "Administrators may ask for another user's with `user_id`; anyone else's is a 403.",
    query: activityFiltersSchema,
    answers: { 200: listAnswer(activitySchema) },
    errors: [403],
  }),
};
