import { z } from "zod";
import { operation } from "../operation";

export const documentApi = {
  document: operation({
    method: "get", path: "/api/v1/openapi.json", tag: "API", summary: "This document (OpenAPI 3.1)", access: "anyone",
    description: "Generated from the schemas the routes parse with; no session needed. Read it as a page at /api/docs.",
    answers: { 200: z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) }) },
  }),
};
