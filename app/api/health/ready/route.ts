import { json } from "@/lib/http/api";
import { isStopping } from "@/lib/server/stopping";

export const dynamic = "force-dynamic";

/**
 * Readiness, for a load balancer: 200 while this instance takes traffic, 503 once it is stopping
 * (SIGTERM), while it finishes what it holds. Liveness is GET /api/health.
 */
export function GET() {
  const stopping = isStopping();
  return json({ status: stopping ? "stopping" : "ready" }, stopping ? 503 : 200);
}

export const HEAD = () => {
  const response = GET();
  return new Response(null, { status: response.status, headers: response.headers });
};
