import { listAnswer } from "@/lib/list/pagination";
import { duplicateFiltersSchema } from "@/lib/subscribers/duplicate-filters";
import { dismissAnswerSchema, dismissBodySchema, duplicateGroupSchema } from "@/lib/subscribers/duplicate-schema";
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
  }),
  undoDismiss: operation({
    method: "post", path: "/api/v1/subscribers/duplicates/dismiss/undo", tag, summary: "Take back \"not duplicates\" between subscribers", access: "admin",
    description: "Every stored pair among them is removed and the flags decided again. Audited.",
    body: dismissBodySchema,
    answers: { 200: dismissAnswerSchema },
  }),
};
