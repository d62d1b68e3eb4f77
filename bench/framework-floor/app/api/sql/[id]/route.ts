import { runScenario } from "../../../../lib/statements";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const result = await runScenario((await params).id, "api");
  if (!result) return Response.json({ error: "unknown scenario" }, { status: 404 });
  return Response.json({ data: result.rows, pagination: { total: result.total } });
}
