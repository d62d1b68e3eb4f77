import type { Metadata } from "next";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { BranchForm } from "../branch-form";

export const metadata: Metadata = { title: "New branch" };

export default async function NewBranchPage() {
  await requirePageAdmin("/branches/new");
  return (
    <div className="mx-auto max-w-lg">
      <h1 className="text-2xl font-semibold tracking-tight">New branch</h1>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <BranchForm />
      </div>
    </div>
  );
}
