import type { Metadata } from "next";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { UserForm } from "./user-form";

export const metadata: Metadata = { title: "New user" };

export default async function NewUserPage() {
  await requirePageAdmin("/users/new");
  return (
    <div className="mx-auto max-w-lg">
      <h1 className="text-2xl font-semibold tracking-tight">New user</h1>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <UserForm />
      </div>
    </div>
  );
}
