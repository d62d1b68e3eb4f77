import { z } from "zod";

/** A country as the API answers it (docs/API.md). */
export const countrySchema = z.object({ id: z.number().int(), name: z.string() }).meta({ id: "Country" });
export type CountryBody = z.output<typeof countrySchema>;
