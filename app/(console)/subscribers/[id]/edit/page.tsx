import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ClientMessages } from "@/components/client-messages";
import { requirePageUser } from "@/lib/auth/page-guards";
import { isScoped } from "@/lib/auth/scope";
import { config } from "@/lib/config";
import { listCountries } from "@/lib/countries/queries";
import { editableFields } from "@/lib/subscribers/edit";
import { branchOptions, sheetNames } from "@/lib/subscribers/options";
import { findSubscriber } from "@/lib/subscribers/record";
import { parseId } from "@/lib/validation/id";
import type { RawParams } from "@/lib/list/params";
import { backQuery, listBack } from "@/lib/subscribers/back";
import { SubscriberForm } from "../../subscriber-form";

export const metadata: Metadata = { title: "Edit subscriber" };

/** Anyone signed in may correct a subscriber (the creation form's rules); the server decides the duplicate flag again. */
export default async function EditSubscriberPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<RawParams> }) {
  const raw = (await params).id;
  const back = listBack((await searchParams).back);
  const scope = (await requirePageUser(`/subscribers/${encodeURIComponent(raw)}/edit${backQuery(back)}`)).scope;
  const id = parseId(raw);
  const s = id === null ? null : await findSubscriber(scope, id);
  if (!s) notFound();
  // Saving, cancelling and the breadcrumb return to the record with the list's address kept.
  const record = `/subscribers/${s.id}${backQuery(back)}`;
  const [branches, countries, sheets] = await Promise.all([branchOptions(scope), listCountries(), sheetNames()]);
  return (
    <div className="mx-auto max-w-2xl">
      <nav aria-label="Breadcrumb" className="flex flex-wrap gap-x-2 text-sm">
        <Link href={back} className="text-brand-700 hover:underline">
          ← Subscribers
        </Link>
        <span aria-hidden="true" className="text-slate-400">/</span>
        <Link href={record} className="text-brand-700 hover:underline">
          <bdi>{`${s.first_name} ${s.last_name}`}</bdi>
        </Link>
      </nav>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">Edit subscriber</h1>
      <p className="mt-1 text-sm text-slate-600">
        The server decides again whether it is a duplicate (an earlier subscriber with the same email or mobile).
      </p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        {/* The form shows the edit-conflict view (../../conflict-view.tsx) when someone saved first. */}
        <ClientMessages namespaces={["conflict"]}>
          <SubscriberForm branches={branches} countries={countries} sheets={sheets} editing={{ id: s.id, record, version: s.updated_at.toISOString(), values: editableFields(s), timeZone: config().CONSOLE_TIME_ZONE }} branchRequired={isScoped(scope)} />
        </ClientMessages>
      </div>
    </div>
  );
}
