import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { branchOptions } from "@/lib/subscribers/options";
import { UserForm } from "./user-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("users"))("new") };
}

export default async function NewUserPage() {
  const admin = await requirePageAdmin("/users/new");
  // The admin's own scope (every branch): the choices of a new staff member's branches.
  const [branches, t] = await Promise.all([branchOptions(admin.scope), getTranslations("users")]);
  return (
    <div className="mx-auto max-w-lg">
      <h1 className="text-2xl font-semibold tracking-tight">{t("new")}</h1>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <ClientMessages namespaces={["users", "problems.users", "problems.auth", "passwordStrength"]}>
          <UserForm branches={branches} />
        </ClientMessages>
      </div>
    </div>
  );
}
