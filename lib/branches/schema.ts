import { z } from "zod";
import { idSchema } from "@/lib/validation/id";
import { safeText } from "@/lib/validation/text";

/** The branch form: used by react-hook-form in the browser and parsed again by the server. */
export const branchInputSchema = z.object({
  name: safeText("Enter a name.").trim().min(1, "Enter a name.").max(100, "Use at most 100 characters."),
});

/** A branch id in an action's input: the one id parser (lib/validation/id.ts). */
export const branchIdSchema = idSchema("The branch id must be a whole number of 1 or more.");

/** A branch as the API answers it (docs/API.md). */
export const branchSchema = z
  .object({ id: z.number().int(), name: z.string(), created_at: z.iso.datetime(), updated_at: z.iso.datetime() })
  .meta({ id: "Branch" });
export type BranchBody = z.output<typeof branchSchema>;
