import type { Metadata } from "next";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { branchOptions } from "@/lib/subscribers/options";
import { UserForm } from "./user-form";

export const metadata: Metadata = { title: "New user" };

export default async function NewUserPage() {
  const admin = await requirePageAdmin("/users/new");
  // The admin's own scope (every branch): the choices of a new staff member's branches.
  const branches = await branchOptions(admin.scope);
  return (
    <div className="mx-auto max-w-lg">
      <h1 className="text-2xl font-semibold tracking-tight">New user</h1>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <UserForm branches={branches} />
      </div>
    </div>
  );
}
