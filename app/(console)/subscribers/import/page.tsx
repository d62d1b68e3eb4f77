import type { Metadata } from "next";
import Link from "next/link";
import { ListProblemNotice } from "@/components/list/list-states";
import { requirePageUser } from "@/lib/auth/page-guards";
import { config } from "@/lib/config";
import { formatCount, formatDateTime } from "@/lib/format";
import { recentImports } from "@/lib/imports/imports";
import { listOutcome } from "@/lib/list/outcome";
import { heavy } from "@/lib/load/user-limit";
import { ImportBadge } from "./status-badge";
import { UploadForm } from "./upload-form";

export const metadata: Metadata = { title: "Import subscribers" };

/** A file to download (a route handler, not a page). */
const TEMPLATE = "/api/v1/subscribers/imports/template";

/** Bring a sheet in: upload (a preview follows), the template, and the user's recent imports. */
export default async function ImportPage() {
  const user = await requirePageUser("/subscribers/import");
  // Within the user's limit of heavy requests, as the uploads and previews are (429: said in place of the list).
  const outcome = await listOutcome(() => heavy(user.id, () => recentImports(user.id)));
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <Link href="/subscribers" className="text-sm text-brand-700 hover:underline">
          ← Subscribers
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Import subscribers</h1>
        <p className="mt-1 text-sm text-slate-600">
          Upload a sheet: you will see how its columns are read and what will happen to every row before anything is written. Nothing is
          half-imported: the valid rows appear together, or not at all.{" "}
          <a href={TEMPLATE} download className="text-brand-700 underline">
            Download template
          </a>
        </p>
      </div>
      <section className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <UploadForm maxMb={config().IMPORT_MAX_MB} />
      </section>
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Your recent imports</h2>
        {!outcome.ok ? (
          <ListProblemNotice problem={outcome.problem} params={{}} path="/subscribers/import" />
        ) : outcome.value.length === 0 ? (
          <p className="text-sm text-slate-600">None yet.</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="min-w-full text-sm">
              <thead className="bg-slate-50 text-start text-slate-600">
                <tr>
                  <th className="px-3 py-2 font-medium">File</th>
                  <th className="px-3 py-2 font-medium">Status</th>
                  <th className="px-3 py-2 text-end font-medium">Imported</th>
                  <th className="px-3 py-2 text-end font-medium">Rejected</th>
                  <th className="px-3 py-2 font-medium">Started</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {outcome.value.map((i) => (
                  <tr key={i.id}>
                    <td className="px-3 py-2">
                      <Link href={`/subscribers/import/${i.id}`} className="text-brand-700 hover:underline">
                        {i.file_name}
                      </Link>
                    </td>
                    <td className="px-3 py-2">
                      <ImportBadge status={i.status} />
                    </td>
                    <td className="px-3 py-2 text-end tabular-nums">{formatCount(i.imported_rows)}</td>
                    <td className="px-3 py-2 text-end tabular-nums">{formatCount(i.rejected_rows)}</td>
                    <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(i.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
