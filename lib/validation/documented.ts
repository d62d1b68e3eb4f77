import { z } from "zod";

/**
 * A schema the OpenAPI document cannot read from its own definition (a `z.custom` that keeps
 * every key of a body as sent, say), documented by a schema built from the same pieces: parsing
 * is `parser`'s, the document shows `shape`'s input (docs/decisions/0029-openapi-from-zod.md).
 */
export function documentedAs<T extends z.ZodType>(shape: z.ZodType, parser: T): T {
  return parser.meta({
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      const documented: Record<string, unknown> = z.toJSONSchema(shape, { io: "input", target: "draft-2020-12" });
      delete documented.$schema;
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      Object.assign(jsonSchema, documented);
    },
  }) as T;
}
