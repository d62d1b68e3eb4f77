import { z } from "zod";

/** docs/API.md's error shape, as the OpenAPI document states it; some errors add members (a 409's `current` record, say). */
export const apiErrorSchema = z
  .object({
    error: z.looseObject({
      code: z.string().meta({ description: "A stable code: invalid_input, unauthorized, forbidden, not_found, conflict, …" }),
      message: z.string().meta({ description: "What went wrong and what to do, for a person." }),
      fields: z.record(z.string(), z.array(z.string())).optional().meta({ description: "Messages by field or parameter name (`_` for the whole input)." }),
      request_id: z.string().optional().meta({ description: "The request's id (its X-Request-Id), to quote when asking for help." }),
    }),
  })
  .meta({ id: "Error" });
