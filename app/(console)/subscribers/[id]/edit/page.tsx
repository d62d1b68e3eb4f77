import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/page-guards";
import { config } from "@/lib/config";
import { listCountries } from "@/lib/countries/queries";
import { editableFields } from "@/lib/subscribers/edit";
import { branchOptions, sheetNames } from "@/lib/subscribers/options";
import { findSubscriber } from "@/lib/subscribers/record";
import { parseId } from "@/lib/validation/id";
import { SubscriberForm } from "../../subscriber-form";

export const metadata: Metadata = { title: "Edit subscriber" };

/** Anyone signed in may correct a subscriber (the creation form's rules); the server decides the duplicate flag again. */
export default async function EditSubscriberPage({ params }: { params: Promise<{ id: string }> }) {
  const raw = (await params).id;
  const scope = (await requirePageUser(`/subscribers/${encodeURIComponent(raw)}/edit`)).scope;
  const id = parseId(raw);
  const s = id === null ? null : await findSubscriber(scope, id);
  if (!s) notFound();
  const [branches, countries, sheets] = await Promise.all([branchOptions(scope), listCountries(), sheetNames()]);
  return (
    <div className="mx-auto max-w-2xl">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href={`/subscribers/${s.id}`} className="text-brand-700 hover:underline">
          ← <bdi>{`${s.first_name} ${s.last_name}`}</bdi>
        </Link>
      </nav>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">Edit subscriber</h1>
      <p className="mt-1 text-sm text-slate-600">
        The server decides again whether it is a duplicate (an earlier subscriber with the same email or mobile).
      </p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <SubscriberForm branches={branches} countries={countries} sheets={sheets} editing={{ id: s.id, version: s.updated_at.toISOString(), values: editableFields(s), timeZone: config().CONSOLE_TIME_ZONE }} />
      </div>
    </div>
  );
}
