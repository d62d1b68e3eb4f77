import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { notFound } from "next/navigation";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { getBranch } from "@/lib/branches/queries";
import { AppError } from "@/lib/errors";
import { parseId } from "@/lib/validation/id";
import { BranchForm } from "../../branch-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("branches"))("edit") };
}

export default async function EditBranchPage({ params }: { params: Promise<{ id: string }> }) {
  const { id: rawId } = await params;
  const user = await requirePageAdmin(`/branches/${encodeURIComponent(rawId)}/edit`);
  // The one spelling of an id (digits, no leading zero): any other names no branch.
  const id = parseId(rawId);
  if (id === null) notFound();
  const branch = await getBranch(user.scope, id).catch((error: unknown) => {
    if (AppError.is(error) && error.status === 404) notFound();
    throw error;
  });
  const t = await getTranslations("branches");
  return (
    <div className="mx-auto max-w-lg">
      <h1 className="text-2xl font-semibold tracking-tight">{t("edit")}</h1>
      <p className="mt-1 text-sm text-slate-500">#{branch.id}</p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <ClientMessages namespaces={["branches", "problems.branches"]}>
          <BranchForm branch={{ id: branch.id, name: branch.name }} />
        </ClientMessages>
      </div>
    </div>
  );
}
