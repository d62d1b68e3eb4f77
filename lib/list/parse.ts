import type { z } from "zod";
import { problemsIn } from "@/lib/i18n/problems-in";
import { fieldErrors } from "@/lib/validation/common";
import { rawParams, type RawParams } from "./params";

// Parsing a list's address with its schema (lib/list/params.ts), apart from the address helpers
// that client components share: the refusal's English words come from the catalogues, which stay
// out of the browser's bundle.

/**
 * A parse: its value, or what is wrong with each field. `problems` holds problem keys
 * (lib/i18n/problem.ts) for a page to put into its reader's words; `fields` and `message` are
 * those problems in English, as the API's `error.fields`, logs and a view's `problem` have always said them.
 */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; fields: Record<string, string[]>; problems: Record<string, string[]>; message: string };

const english = problemsIn("en");

/** A refusal from `{ field: [problem keys] }` (or words already, kept as they are). */
export function refusal(problems: Record<string, string[]>): Extract<ParseResult<never>, { ok: false }> {
  const fields = Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, v.map(english)]));
  return { ok: false, fields, problems, message: Object.entries(fields).map(([k, v]) => `${k}: ${v.join(" ")}`).join(" ") };
}

export function parseWith<S extends z.ZodType>(schema: S, input: URLSearchParams | RawParams): ParseResult<z.output<S>> {
  const result = schema.safeParse(rawParams(input));
  if (result.success) return { ok: true, value: result.data };
  return refusal(fieldErrors(result.error));
}

