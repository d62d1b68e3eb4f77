import { requireUser } from "@/lib/auth/guards";
import { listCountries, serializeCountry } from "@/lib/countries/queries";
import { json, route } from "@/lib/http/api";

export const dynamic = "force-dynamic";

export const GET = route(async () => {
  await requireUser();
  return json({ data: (await listCountries()).map(serializeCountry) });
});
