import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { requirePageUser } from "@/lib/auth/page-guards";
import { consoleOrigin, safeReturnPath } from "@/lib/http/return-to";
import type { RawParams } from "@/lib/list/params";
import { tableSettings } from "@/lib/subscribers/columns";
import { ColumnForm } from "./column-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("columns");
  return { title: t("title") };
}

/** A page of its own rather than a menu in the list, so the list stays light. */
export default async function ColumnsPage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const back = safeReturnPath(typeof params.back === "string" ? params.back : "/subscribers", consoleOrigin(), "/subscribers");
  const user = await requirePageUser(`/subscribers/columns?back=${encodeURIComponent(back)}`);
  const t = await getTranslations("columns");
  return (
    <div className="mx-auto max-w-xl space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <p className="text-sm text-slate-600">{t("intro")}</p>
      <ColumnForm settings={tableSettings(user.preferences)} back={back} />
    </div>
  );
}
