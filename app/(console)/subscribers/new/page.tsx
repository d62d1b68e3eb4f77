import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/page-guards";
import { isScoped } from "@/lib/auth/scope";
import { listCountries } from "@/lib/countries/queries";
import { branchOptions, sheetNames } from "@/lib/subscribers/options";
import { SubscriberForm } from "../subscriber-form";

export const metadata: Metadata = { title: "New subscriber" };

/** Every signed-in user may create subscribers (docs/SPEC.md: no administrator check). */
export default async function NewSubscriberPage() {
  const scope = (await requirePageUser("/subscribers/new")).scope;
  const [branches, countries, sheets] = await Promise.all([branchOptions(scope), listCountries(), sheetNames()]);
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-semibold tracking-tight">New subscriber</h1>
      <p className="mt-1 text-sm text-slate-600">
        The server marks the subscriber as a duplicate when an earlier one has the same email or mobile.
      </p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <SubscriberForm branches={branches} countries={countries} sheets={sheets} branchRequired={isScoped(scope)} />
      </div>
    </div>
  );
}
