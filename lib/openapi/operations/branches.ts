import { branchFiltersSchema } from "@/lib/branches/filters";
import { branchInputSchema, branchSchema } from "@/lib/branches/schema";
import { listAnswer } from "@/lib/list/pagination";
import { idPathParams } from "@/lib/validation/id";
import { operation } from "../operation";

const tag = "Branches";

export const branchesApi = {
  list: operation({
    method: "get", path: "/api/v1/branches", tag, summary: "List branches", access: "signed_in", tokenScope: "read",
    query: branchFiltersSchema,
    answers: { 200: listAnswer(branchSchema) },
  }),
  create: operation({
    method: "post", path: "/api/v1/branches", tag, summary: "Create a branch", access: "admin",
    body: branchInputSchema,
    answers: { 201: branchSchema },
    errors: [409],
  }),
  get: operation({
    method: "get", path: "/api/v1/branches/{id}", tag, summary: "Read a branch", access: "signed_in", tokenScope: "read",
    params: idPathParams,
    answers: { 200: branchSchema },
  }),
  update: operation({
    method: "patch", path: "/api/v1/branches/{id}", tag, summary: "Rename a branch", access: "admin",
    params: idPathParams, body: branchInputSchema,
    answers: { 200: branchSchema },
    errors: [409],
  }),
  delete: operation({
    method: "delete", path: "/api/v1/branches/{id}", tag, summary: "Delete a branch (to the trash)", access: "admin",
    description: "Its subscribers keep their link and show no branch until it is restored; its name is free meanwhile.",
    params: idPathParams,
    answers: { 204: null },
  }),
};
