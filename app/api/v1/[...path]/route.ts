import { apiError } from "@/lib/http/api";

export const dynamic = "force-dynamic";

// Any /api/v1 path that no route handler serves: docs/API.md's error shape (with the API's headers)
// instead of Next's HTML page. Nothing is read, so nobody needs to be signed in to be told.
const unknown = async () => apiError(404, "not_found", "There is no such API path. See docs/API.md for the console's API.");

export const GET = unknown;
export const POST = unknown;
export const PUT = unknown;
export const PATCH = unknown;
export const DELETE = unknown;
