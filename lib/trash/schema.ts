import { z } from "zod";
import { branchSchema } from "@/lib/branches/schema";
import { subscriberSchema } from "@/lib/subscribers/schema";

// The trash's records as the API answers them (docs/API.md, Trash).

const deletedBy = z
  .object({ id: z.number().int(), name: z.string() })
  .nullable()
  .meta({ description: "Who deleted it (null: an account that no longer exists)." });

export const trashedSubscriberSchema = subscriberSchema
  .extend({
    deleted_at: z.iso.datetime(),
    deleted_by: deletedBy,
    merged_into: z.number().int().nullable().meta({ description: "The subscriber it was merged into, or null when it was deleted." }),
  })
  .meta({ id: "TrashedSubscriber" });

export const trashedBranchSchema = branchSchema.extend({ deleted_at: z.iso.datetime(), deleted_by: deletedBy }).meta({ id: "TrashedBranch" });
