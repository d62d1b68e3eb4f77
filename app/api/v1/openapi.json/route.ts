import { json, route } from "@/lib/http/api";
import { servedDocument } from "@/lib/openapi/served";

export const dynamic = "force-dynamic";

/** 200: the OpenAPI 3.1 document of /api/v1, generated from the routes' schemas; no session needed. */
export const GET = route(async () => json(servedDocument()));
