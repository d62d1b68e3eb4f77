import { z } from "zod";
import { problem } from "@/lib/i18n/problem";
import { idSchema } from "@/lib/validation/id";
import { safeText } from "@/lib/validation/text";

/** The branch form: used by react-hook-form in the browser and parsed again by the server. */
export const branchInputSchema = z.object({
  name: safeText(problem("branches.nameRequired")).trim().min(1, problem("branches.nameRequired")).max(100, problem("branches.nameTooLong", { max: 100 })),
});

/** A branch id in an action's input: the one id parser (lib/validation/id.ts). */
export const branchIdSchema = idSchema(problem("branches.idInvalid"));

/** A branch as the API answers it (docs/API.md). */
export const branchSchema = z
  .object({ id: z.number().int(), name: z.string(), created_at: z.iso.datetime(), updated_at: z.iso.datetime() })
  .meta({ id: "Branch" });
export type BranchBody = z.output<typeof branchSchema>;
