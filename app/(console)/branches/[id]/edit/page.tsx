import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { getBranch } from "@/lib/branches/queries";
import { AppError } from "@/lib/errors";
import { parseId } from "@/lib/validation/id";
import { BranchForm } from "../../branch-form";

export const metadata: Metadata = { title: "Edit branch" };

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
  return (
    <div className="mx-auto max-w-lg">
      <h1 className="text-2xl font-semibold tracking-tight">Edit branch</h1>
      <p className="mt-1 text-sm text-slate-500">#{branch.id}</p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <BranchForm branch={{ id: branch.id, name: branch.name }} />
      </div>
    </div>
  );
}
