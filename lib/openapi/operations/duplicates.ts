import { listAnswer } from "@/lib/list/pagination";
import { z } from "zod";
import { duplicateFiltersSchema } from "@/lib/subscribers/duplicate-filters";
import { dismissAnswerSchema, dismissBodySchema, duplicateGroupSchema, mergeAnswerSchema, mergeBodySchema } from "@/lib/subscribers/duplicate-schema";
import { subscriberRecordSchema } from "@/lib/subscribers/schema";
import { operation } from "../operation";

const tag = "Duplicates";

// The duplicates review (docs/API.md, "Duplicates: review and merge").

export const duplicatesApi = {
  list: operation({
    method: "get", path: "/api/v1/subscribers/duplicates", tag, summary: "Groups of subscribers sharing an email or a mobile", access: "signed_in", tokenScope: "read",
    description: "10 groups a page, the group with the newest member first; each group's members newest first (at most 50). Pairs marked not duplicates are left out; a scoped user sees the members in their scope, and a group with fewer than two of them not at all.",
    query: duplicateFiltersSchema,
    answers: { 200: listAnswer(duplicateGroupSchema) },
  }),
  dismiss: operation({
    method: "post", path: "/api/v1/subscribers/duplicates/dismiss", tag, summary: "Mark subscribers as not duplicates of each other", access: "signed_in",
    description: "Every pair of them is stored; their flags, and those of everyone sharing their keys, are decided again. Audited. 404 naming a subscriber outside your scope or unknown.",
    body: dismissBodySchema,
    answers: { 200: dismissAnswerSchema },
    errors: [404],
  }),
  undoDismiss: operation({
    method: "post", path: "/api/v1/subscribers/duplicates/dismiss/undo", tag, summary: "Take back \"not duplicates\" between subscribers", access: "admin",
    description: "Every stored pair among them is removed and the flags decided again. Audited. 404 naming a subscriber unknown or in the trash.",
    body: dismissBodySchema,
    answers: { 200: dismissAnswerSchema },
    errors: [404],
  }),
  merge: operation({
    method: "post", path: "/api/v1/subscribers/merge", tag, summary: "Merge duplicates into one subscriber", access: "admin",
    description: "One transaction: the survivor takes each field named in `values` from that subscriber (its own value otherwise); the merged go to the trash with `merged_into`; every flag involved is decided again; the survivor's history names the merge. 409 naming who changed what when any of them changed since its `updated_at`; 400 for fewer than two distinct subscribers, a survivor among the merged, or a field that is not a subscriber field.",
    body: mergeBodySchema,
    answers: { 200: mergeAnswerSchema },
    errors: [404, 409],
  }),
  undoMerge: operation({
    method: "post", path: "/api/v1/subscribers/merges/{merge_id}/undo", tag, summary: "Undo a merge", access: "admin",
    description: "The merged come back from the trash and the survivor gets its values from before the merge. 409 when the survivor changed since the merge, a merged subscriber left the trash, or the merge was already undone.",
    params: z.object({ merge_id: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/).meta({ description: "The merge's id, as the merge answered it." }) }),
    answers: { 200: subscriberRecordSchema },
    errors: [409],
  }),
};
