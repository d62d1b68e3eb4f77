import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { ListProblemNotice } from "@/components/list/list-states";
import { requirePageUser } from "@/lib/auth/page-guards";
import { config } from "@/lib/config";
import { getFormats } from "@/lib/i18n/server";
import { recentImports } from "@/lib/imports/imports";
import { listOutcome } from "@/lib/list/outcome";
import { heavy } from "@/lib/load/user-limit";
import { BackLink } from "./back-link";
import { ImportBadge } from "./status-badge";
import { UploadForm } from "./upload-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("import");
  return { title: t("title") };
}

/** A file to download (a route handler, not a page). */
const TEMPLATE = "/api/v1/subscribers/imports/template";

/** Bring a sheet in: upload (a preview follows), the template, and the user's recent imports. */
export default async function ImportPage() {
  const user = await requirePageUser("/subscribers/import");
  const t = await getTranslations("import");
  const f = await getFormats();
  // Within the user's limit of heavy requests, as the uploads and previews are (429: said in place of the list).
  const outcome = await listOutcome(() => heavy(user.id, () => recentImports(user.id)));
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <BackLink href="/subscribers">{t("backToSubscribers")}</BackLink>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">
          {t("intro")}{" "}
          <a href={TEMPLATE} download className="text-brand-700 underline">
            {t("template")}
          </a>
        </p>
      </div>
      <section className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <ClientMessages namespaces={["import"]}>
          <UploadForm maxMb={config().IMPORT_MAX_MB} />
        </ClientMessages>
      </section>
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">{t("recent")}</h2>
        {!outcome.ok ? (
          <ListProblemNotice problem={outcome.problem} params={{}} path="/subscribers/import" />
        ) : outcome.value.length === 0 ? (
          <p className="text-sm text-slate-600">{t("noneYet")}</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="min-w-full text-sm">
              <thead className="bg-slate-50 text-start text-slate-600">
                <tr>
                  <th className="px-3 py-2 text-start font-medium">{t("columns.file")}</th>
                  <th className="px-3 py-2 text-start font-medium">{t("columns.status")}</th>
                  <th className="px-3 py-2 text-end font-medium">{t("columns.imported")}</th>
                  <th className="px-3 py-2 text-end font-medium">{t("columns.rejected")}</th>
                  <th className="px-3 py-2 text-start font-medium">{t("columns.started")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {outcome.value.map((i) => (
                  <tr key={i.id}>
                    <td className="px-3 py-2">
                      <Link href={`/subscribers/import/${i.id}`} className="text-brand-700 hover:underline">
                        <bdi>{i.file_name}</bdi>
                      </Link>
                    </td>
                    <td className="px-3 py-2">
                      <ImportBadge status={i.status} />
                    </td>
                    <td className="px-3 py-2 text-end tabular-nums">{f.count(i.imported_rows)}</td>
                    <td className="px-3 py-2 text-end tabular-nums">{f.count(i.rejected_rows)}</td>
                    <td className="px-3 py-2 whitespace-nowrap">{f.dateTime(i.created_at)}</td>
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
