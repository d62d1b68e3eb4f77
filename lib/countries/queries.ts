import "server-only";
import { prisma } from "@/lib/db/client";
import type { CountryBody } from "./schema";

type CountryOption = { id: number; name: string; code: string };

const collator = new Intl.Collator("en", { sensitivity: "base" });

/**
 * Every country (about 250, reference data) ordered by name as people read it ("Åland Islands"
 * among the A's, whatever the database's collation): the API and the subscriber form.
 */
export async function listCountries(): Promise<CountryOption[]> {
  const countries = await (await prisma()).country.findMany({ select: { id: true, name: true, code: true } });
  return countries.sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
}

/** docs/API.md's country record. */
export const serializeCountry = (c: CountryOption): CountryBody => ({ id: c.id, name: c.name });
