import { apiError } from "@/lib/http/api";
import { scrapeMetrics } from "@/lib/telemetry/scrape";

export const dynamic = "force-dynamic";

/** This process's Prometheus metrics, for the holder of METRICS_TOKEN (docs/deployment.md, "Metrics"). */
export async function GET(request: Request) {
  const scrape = await scrapeMetrics(request.headers.get("authorization"));
  if (scrape.status !== 200) {
    if (scrape.status === 404) return apiError(404, "not_found", "Not found.");
    const response = apiError(401, "unauthorized", "Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.");
    response.headers.set("WWW-Authenticate", 'Bearer realm="metrics"');
    return response;
  }
  return new Response(scrape.body, { headers: { "Content-Type": scrape.contentType, "Cache-Control": "no-store" } });
}
