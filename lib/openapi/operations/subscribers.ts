import { listAnswer } from "@/lib/list/pagination";
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { subscriberInputSchema, subscriberPatchSchema, subscriberRecordSchema, subscriberSchema } from "@/lib/subscribers/schema";
import { idPathParams } from "@/lib/validation/id";
import { operation } from "../operation";

const tag = "Subscribers";

export const subscribersApi = {
  list: operation({
    method: "get", path: "/api/v1/subscribers", tag, summary: "List subscribers", access: "signed_in", tokenScope: "read",
    description: "The list's filters, sort and page (docs/API.md, Filters); 429 when the caller already has too many heavy lists loading.",
    query: subscriberFiltersSchema,
    answers: { 200: listAnswer(subscriberSchema) },
    errors: [429],
  }),
  create: operation({
    method: "post", path: "/api/v1/subscribers", tag, summary: "Create a subscriber", access: "signed_in",
    description: "`is_duplicate` is computed by the server, never taken from the body. The mobile is normalised to E.164 with the country's rules.",
    body: subscriberInputSchema,
    answers: { 201: subscriberSchema },
  }),
  get: operation({
    method: "get", path: "/api/v1/subscribers/{id}", tag, summary: "Read a subscriber", access: "signed_in", tokenScope: "read",
    params: idPathParams,
    answers: { 200: subscriberRecordSchema },
  }),
  update: operation({
    method: "patch", path: "/api/v1/subscribers/{id}", tag, summary: "Change a subscriber", access: "signed_in",
    description: "The given fields over the record, checked by the creation rules. `updated_at` as read says which version you changed: 409 when someone changed it since.",
    params: idPathParams,
    body: subscriberPatchSchema,
    answers: { 200: subscriberRecordSchema },
    errors: [409],
  }),
  delete: operation({
    method: "delete", path: "/api/v1/subscribers/{id}", tag, summary: "Delete a subscriber (to the trash)", access: "admin",
    description: "It leaves every list, count, export and duplicate check, and can be restored from the trash for TRASH_RETENTION_DAYS.",
    params: idPathParams,
    answers: { 204: null },
  }),
};
