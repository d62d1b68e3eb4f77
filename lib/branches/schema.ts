import { z } from "zod";
import { CONTROL_CHARACTERS_MESSAGE, noControlCharacters } from "@/lib/validation/common";

/** The branch form: used by react-hook-form in the browser and parsed again by the server. */
export const branchInputSchema = z.object({
  name: z
    .string({ message: "Enter a name." })
    .trim()
    .min(1, "Enter a name.")
    .max(100, "Use at most 100 characters.")
    .refine(noControlCharacters, CONTROL_CHARACTERS_MESSAGE),
});
export type BranchInput = z.input<typeof branchInputSchema>;

export const branchIdSchema = z.coerce
  .number({ message: "The branch id must be a number." })
  .int("The branch id must be a whole number.")
  .min(1, "The branch id must be 1 or more.")
  .max(2_147_483_647, "The branch id is too large.");
