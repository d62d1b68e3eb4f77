import { notFound } from "next/navigation";
import { runScenario } from "../../../lib/statements";

export const dynamic = "force-dynamic";

/** The scenario's rows in a plain table: every column as text, and the total. */
export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const result = await runScenario((await params).id, "html");
  if (!result) notFound();
  const columns = Object.keys(result.rows[0] ?? {});
  return (
    <main>
      <p>{result.total} rows</p>
      <table>
        <thead>
          <tr>{columns.map((c) => <th key={c}>{c}</th>)}</tr>
        </thead>
        <tbody>
          {result.rows.map((row, i) => (
            <tr key={i}>{columns.map((c) => <td key={c}>{String(row[c] ?? "")}</td>)}</tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
