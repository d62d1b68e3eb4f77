import { checkHealth } from "@/lib/health/check";
import { RETRY_AFTER_SECONDS } from "@/lib/health/unavailable";
import { json } from "@/lib/http/api";

export const dynamic = "force-dynamic";

/**
 * The service's health, for monitors, load balancers and the error page: 200 while the database
 * answers (`status` "ok", or "degraded" when exports wait with no worker), 503 with Retry-After
 * while it does not. No session needed; no details beyond states and counts.
 */
export async function GET() {
  const report = await checkHealth();
  const response = json(report, report.status === "unavailable" ? 503 : 200);
  if (report.status === "unavailable") response.headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  return response;
}

export const HEAD = async () => {
  const response = await GET();
  return new Response(null, { status: response.status, headers: response.headers });
};
