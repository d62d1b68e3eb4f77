import { z } from "zod";
import { personKeySchema } from "@/lib/people/key";
import { operation } from "../operation";

// A person's data through the API (docs/API.md, "Personal data: access and erasure (admins)").

const tag = "Personal data";

export const personEraseSchema = personKeySchema.and(
  z.object({ confirm: z.literal(true, { message: "Erasure cannot be undone: send \"confirm\": true." }) }),
);

export const erasureCountsSchema = z.object({
  erased_subscribers: z.number().int(),
  history_entries: z.number().int(),
  audit_entries_scrubbed: z.number().int(),
  import_rows: z.number().int(),
  exports_withdrawn: z.number().int(),
});

export const retentionDryRunSchema = z.object({
  enabled: z.boolean(),
  erase_after_days: z.number().int().nullable(),
  unchanged_days: z.number().int(),
  total: z.number().int(),
  branches: z.array(z.object({ branch_id: z.number().int().nullable(), branch_name: z.string().nullable(), count: z.number().int() })),
});

const days = (what: string) => z.coerce.number().int(`${what} is a whole number of days.`).min(0, `${what} is a whole number of days.`).max(36_500, `${what} is at most 36500 days.`);

export const retentionQuerySchema = z.object({
  erase_after_days: days("erase_after_days").min(1, "erase_after_days is at least 1.").optional(),
  unchanged_days: days("unchanged_days").optional(),
});

export const personalDataApi = {
  export: operation({
    method: "get", path: "/api/v1/people/export", tag, summary: "Download everything held about a person", access: "admin", tokenScope: "read",
    description:
      "One of `email`, `mobile` (E.164 or with + and the country code) or `subscriber_id` (that record's email and mobile). A zip of `person.json` " +
      "(every record sharing the email or mobile: live, in the trash, merged away; each one's history; merges, bulk changes, audit entries, " +
      "imports and exports that concern them, saved views naming them) and `summary.csv`. 404 when nothing matches. Audited as `person.export` without personal values.",
    query: personKeySchema,
    answers: { 200: { file: ["application/zip"] } },
    errors: [404],
  }),
  erase: operation({
    method: "post", path: "/api/v1/people/erase", tag, summary: "Erase a person everywhere", access: "admin",
    description:
      "Every record sharing the email or mobile, and every copy of their values (history, merges, bulk changes' undo data, filters of exports, " +
      "views and the audit, import previews and files); export files holding them are withdrawn (their owners get 410 `erased_data`). " +
      "Cannot be undone. Audited as `person.erase` with the counts. 404 when nothing matches.",
    body: personEraseSchema,
    answers: { 200: erasureCountsSchema },
    errors: [404],
  }),
  retention: operation({
    method: "get", path: "/api/v1/people/retention", tag, summary: "Retention's dry run: how many subscribers it would erase, per branch", access: "admin", tokenScope: "read",
    description:
      "Subscribers whose travel date is `RETENTION_ERASE_AFTER_DAYS` past and that nobody changed for `RETENTION_UNCHANGED_DAYS`, counted per branch; " +
      "`erase_after_days` and `unchanged_days` try other settings. Writes nothing. `enabled`: whether the scheduled job erases (the setting is set).",
    query: retentionQuerySchema,
    answers: { 200: retentionDryRunSchema },
  }),
};
