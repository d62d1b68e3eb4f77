import { jobIdPathParams } from "@/lib/jobs/ids";
import { listAnswer } from "@/lib/list/pagination";
import { bulkApiBodySchema, bulkChangeRecordSchema } from "@/lib/subscribers/bulk-schema";
import { subscriberRecordSchema } from "@/lib/subscribers/schema";
import { branchSchema } from "@/lib/branches/schema";
import { trashFiltersSchema } from "@/lib/trash/filters";
import { trashedBranchSchema, trashedSubscriberSchema } from "@/lib/trash/schema";
import { idPathParams } from "@/lib/validation/id";
import { operation } from "../operation";

// The trash and bulk changes through the API (docs/API.md, "Trash" and "Bulk changes through the API, and undo").

const trash = "Trash";
const bulk = "Bulk changes";

const restoreDescription = "Back among the live records: 404 unless it is in the trash; 409 when restoring would break a rule (a branch's name taken since), naming it.";

export const trashApi = {
  listSubscribers: operation({
    method: "get", path: "/api/v1/trash/subscribers", tag: trash, summary: "List trashed subscribers", access: "admin", tokenScope: "read",
    description: "Newest deletion first. `name` matches the first or last name or the email; `deleted_from`/`deleted_to` are whole days.",
    query: trashFiltersSchema,
    answers: { 200: listAnswer(trashedSubscriberSchema) },
  }),
  listBranches: operation({
    method: "get", path: "/api/v1/trash/branches", tag: trash, summary: "List trashed branches", access: "admin", tokenScope: "read",
    query: trashFiltersSchema,
    answers: { 200: listAnswer(trashedBranchSchema) },
  }),
  restoreSubscriber: operation({
    method: "post", path: "/api/v1/trash/subscribers/{id}/restore", tag: trash, summary: "Restore a trashed subscriber", access: "admin",
    description: `${restoreDescription} Its duplicate flag, and those of the subscribers after it sharing its email or mobile, are decided again.`,
    params: idPathParams,
    answers: { 200: subscriberRecordSchema },
  }),
  restoreBranch: operation({
    method: "post", path: "/api/v1/trash/branches/{id}/restore", tag: trash, summary: "Restore a trashed branch", access: "admin",
    description: `${restoreDescription} Its subscribers show its name again.`,
    params: idPathParams,
    answers: { 200: branchSchema },
    errors: [409],
  }),
  eraseSubscriber: operation({
    method: "delete", path: "/api/v1/trash/subscribers/{id}", tag: trash, summary: "Erase a trashed subscriber for good", access: "admin",
    params: idPathParams,
    answers: { 204: null },
  }),
  eraseBranch: operation({
    method: "delete", path: "/api/v1/trash/branches/{id}", tag: trash, summary: "Erase a trashed branch for good", access: "admin",
    description: "Its subscribers are left without a branch.",
    params: idPathParams,
    answers: { 204: null },
  }),
};

export const bulkApi = {
  request: operation({
    method: "post", path: "/api/v1/subscribers/bulk", tag: bulk, summary: "Change many subscribers at once", access: "signed_in",
    description:
      "Exactly one of `filters` (the list's filters; `{}` is every subscriber) and `ids` (at most 100). Status and mandatory changes: anyone signed in; " +
      "deletion (to the trash): administrators. 200 with the finished change when it ran at once, 202 when it runs as a job (read it with GET). " +
      "429 when you already have too many jobs.",
    body: bulkApiBodySchema,
    answers: { 200: bulkChangeRecordSchema, 202: bulkChangeRecordSchema },
    errors: [429],
  }),
  get: operation({
    method: "get", path: "/api/v1/subscribers/bulk/{id}", tag: bulk, summary: "Read a bulk change", access: "signed_in", tokenScope: "read",
    description: "Its author's, or any for an administrator; anyone else's is a 404.",
    params: jobIdPathParams,
    answers: { 200: bulkChangeRecordSchema },
  }),
  undo: operation({
    method: "post", path: "/api/v1/subscribers/bulk/{id}/undo", tag: bulk, summary: "Undo a bulk change", access: "signed_in",
    description:
      "Its author or an administrator (a deletion's: administrators), within TRASH_RETENTION_DAYS. Puts back every row it changed, except rows " +
      "changed since by anyone (counted in `skipped_rows`); a deletion's undo restores its rows from the trash. Answers like a bulk change, with " +
      "`undo_of`; 409 when it is already undone, being undone, not finished, an undo itself, or too old.",
    params: jobIdPathParams,
    answers: { 200: bulkChangeRecordSchema, 202: bulkChangeRecordSchema },
    errors: [409, 429],
  }),
};
