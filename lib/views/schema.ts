import { z } from "zod";
import { problem } from "@/lib/i18n/problem";
import { safeText } from "@/lib/validation/text";
import { idSchema } from "@/lib/validation/id";
import { optionParam, pageParam } from "@/lib/list/params";
import { VIEW_QUERY_MAX_LENGTH, VIEW_RESOURCES } from "./resources";

// The one parser of a view's fields, for the API, the menu's forms and their actions. The query
// and columns are checked against their list in lib/views/resources.ts, once the list is known.

const name = safeText(problem("views.nameMissing")).trim().min(1, problem("views.nameMissing")).max(60, problem("common.tooLong", { max: 60 }));
const query = z.string({ message: problem("views.queryNotText") }).max(VIEW_QUERY_MAX_LENGTH, problem("common.tooLong", { max: VIEW_QUERY_MAX_LENGTH }));
const columns = z.array(z.string({ message: problem("views.columnNotText") }), { message: problem("views.columnsNotList") }).nullable();

export const viewResourceSchema = z.enum(VIEW_RESOURCES, { message: problem("list.oneOf", { name: "resource", values: VIEW_RESOURCES.join(", ") }) });

/** GET /api/v1/views: `resource` picks one list's views; absent, every list's. Paged like every list. */
export const viewListQuerySchema = z.object({ page: pageParam, resource: optionParam(VIEW_RESOURCES, "resource") });

/** The views page's own query (its `resource` and `back` are read leniently, as before): the page. */
export const viewsPageSchema = z.object({ page: pageParam });

export const viewCreateSchema = z.strictObject({
  resource: viewResourceSchema,
  name,
  query: query.default(""),
  columns: columns.default(null),
  shared: z.boolean({ message: problem("views.sharedBoolean") }).default(false),
});
export type ViewCreate = z.output<typeof viewCreateSchema>;

export const viewPatchSchema = z.strictObject({
  name: name.optional(),
  query: query.optional(),
  columns: columns.optional(),
  shared: z.boolean({ message: problem("views.sharedBoolean") }).optional(),
});
export type ViewPatch = z.output<typeof viewPatchSchema>;

export const viewIdSchema = idSchema(problem("views.idWhole"));

/** A view as the API answers it (docs/API.md, Saved views); serializeView's type. */
export const viewSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    resource: z.enum(VIEW_RESOURCES),
    query: z.string().meta({ description: "The list's query string, without `page`." }),
    columns: z.array(z.string()).nullable().meta({ description: "null, or the shown columns in order." }),
    shared: z.boolean(),
    owner: z.object({ id: z.number().int(), name: z.string() }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    problem: z.string().nullable().meta({ description: "null, or why its list now refuses its query or columns (the view is kept, shown as broken)." }),
  })
  .meta({ id: "View" });
export type View = z.output<typeof viewSchema>;
