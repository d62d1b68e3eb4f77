import { mayReadHealthDetails } from "@/lib/health/access";
import { checkHealth, checkUp } from "@/lib/health/check";
import { RETRY_AFTER_SECONDS } from "@/lib/health/unavailable";
import { json } from "@/lib/http/api";

export const dynamic = "force-dynamic";

/** 200 while the database answers, 503 while not; details only for lib/health/access.ts's callers. */
export async function GET(request: Request) {
  const report = (await mayReadHealthDetails(request)) ? await checkHealth() : await checkUp();
  const response = json(report, report.status === "unavailable" ? 503 : 200);
  if (report.status === "unavailable") response.headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  return response;
}

export const HEAD = async (request: Request) => {
  const response = await GET(request);
  return new Response(null, { status: response.status, headers: response.headers });
};
