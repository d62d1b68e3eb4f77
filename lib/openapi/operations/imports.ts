import { importStatusSchema, importUploadShape } from "@/lib/imports/schema";
import { jobIdPathParams } from "@/lib/jobs/ids";
import { z } from "zod";
import { operation } from "../operation";

const tag = "Imports";

export const importsApi = {
  list: operation({
    method: "get", path: "/api/v1/subscribers/imports", tag, summary: "Your ten most recent imports", access: "signed_in", tokenScope: "read",
    answers: { 200: z.object({ data: z.array(importStatusSchema) }) },
  }),
  create: operation({
    method: "post", path: "/api/v1/subscribers/imports", tag, summary: "Upload a CSV or XLSX file to import (or preview, with dry_run=true)", access: "signed_in",
    description:
      "Multipart, each part once. A dry run answers 200 with the counts and the preview and imports nothing; an import is queued (202). " +
      "Bad files: 400 `invalid_file`; a mapping that cannot be used: 400 `invalid_mapping`; not multipart: 415; past IMPORT_MAX_MB: 413.",
    multipart: importUploadShape,
    answers: { 200: importStatusSchema, 202: importStatusSchema },
    errors: [413, 415, 429],
  }),
  status: operation({
    method: "get", path: "/api/v1/subscribers/imports/{id}", tag, summary: "Read an import's status (its owner only)", access: "signed_in", tokenScope: "read",
    params: jobIdPathParams,
    answers: { 200: importStatusSchema },
  }),
  template: operation({
    method: "get", path: "/api/v1/subscribers/imports/template", tag, summary: "A CSV with the header an import reads", access: "signed_in", tokenScope: "read",
    answers: { 200: { file: ["text/csv"] } },
  }),
  rejected: operation({
    method: "get", path: "/api/v1/subscribers/imports/{id}/rejected", tag, summary: "The rejected rows of a completed import, with an `error` column", access: "signed_in", tokenScope: "read",
    params: jobIdPathParams,
    answers: { 200: { file: ["text/csv"] } },
  }),
};
