import { z } from "zod";
import { idParam, pageParam, textParam } from "@/lib/list/params";

// The one parser of /activity's query, shared by the page and GET /api/v1/activity, and the
// entries as the API answers them (docs/API.md, "Security and daily use").

export const activityFiltersSchema = z.object({
  page: pageParam,
  user_id: idParam.meta({ description: "Whose activity (administrators; anyone else only their own id). Default: your own." }),
  user: textParam.meta({ description: "Whose activity, by email address, as on the page (administrators; anyone else only their own). `user_id` wins when both are given." }),
});
export type ActivityFilters = z.output<typeof activityFiltersSchema>;
export const ACTIVITY_FILTER_KEYS = ["user", "user_id"] as const;

export const ACTIVITY_KINDS = ["bulk_change", "import", "export", "merge", "subscriber_deletion", "branch_deletion"] as const;
export const ACTIVITY_STATUSES = ["in_queue", "running", "completed", "failed", "undoing", "undone", "in_trash"] as const;

export const activitySchema = z
  .object({
    kind: z.enum(ACTIVITY_KINDS),
    id: z.string().meta({ description: "The bulk change's, import's, export's or merge's id; a deletion's subscriber or branch id." }),
    at: z.iso.datetime(),
    user: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    status: z.enum(ACTIVITY_STATUSES),
    summary: z.string().meta({ description: "What it did, in words." }),
    href: z.string().nullable().meta({ description: "The console page that shows it, when there is one for you." }),
    can_undo: z.boolean().meta({ description: "Whether you may undo it now (a bulk change's undo, a merge's undo, a restore from the trash)." }),
  })
  .meta({ id: "Activity" });
export type Activity = z.output<typeof activitySchema>;
