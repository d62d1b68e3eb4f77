import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { BranchForm } from "../branch-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("branches"))("new") };
}

export default async function NewBranchPage() {
  await requirePageAdmin("/branches/new");
  const t = await getTranslations("branches");
  return (
    <div className="mx-auto max-w-lg">
      <h1 className="text-2xl font-semibold tracking-tight">{t("new")}</h1>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <ClientMessages namespaces={["branches", "problems.branches"]}>
          <BranchForm />
        </ClientMessages>
      </div>
    </div>
  );
}
