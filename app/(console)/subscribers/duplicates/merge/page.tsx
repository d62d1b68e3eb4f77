import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageAdmin } from "@/lib/auth/page-guards";
import { parseWith, withParams, type RawParams } from "@/lib/list/params";
import { MERGE_FIELDS, mergePageSchema } from "@/lib/subscribers/duplicate-schema";
import { fieldText } from "@/lib/subscribers/merge-fields";
import { findSubscriber } from "@/lib/subscribers/record";
import { MergeForm, type MergeMember } from "./merge-form";

export const metadata: Metadata = { title: "Merge duplicates" };

const PATH = "/subscribers/duplicates/merge";

/** Merge… (administrators): choose the subscriber that stays and, field by field, whose value it keeps. */
export default async function MergePage({ searchParams }: { searchParams: Promise<RawParams> }) {
  const params = await searchParams;
  const user = await requirePageAdmin(`${PATH}${withParams(params, {})}`);
  const parsed = parseWith(mergePageSchema, params);
  if (!parsed.ok) notFound();
  const scope = user.scope;
  const found = await Promise.all(parsed.value.ids.map((id) => findSubscriber(scope, id)));
  const rows = found.filter((s) => s !== null);
  if (rows.length < 2) notFound();
  const members: MergeMember[] = rows
    .sort((a, b) => a.id - b.id)
    .map((s) => ({
      id: s.id,
      name: `${s.first_name} ${s.last_name}`,
      updated_at: s.updated_at.toISOString(),
      texts: Object.fromEntries(MERGE_FIELDS.map((f) => [f, fieldText(s, f)])) as MergeMember["texts"],
    }));
  return (
    <div className="space-y-5">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/subscribers/duplicates" className="text-brand-700 hover:underline">
          ← Duplicates
        </Link>
      </nav>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Merge {members.length} subscribers</h1>
        <p className="mt-1 text-sm text-slate-600">
          Choose the subscriber that stays, and for each field whose value it keeps (the one that stays keeps its own values unless you choose others; where it has none, the newest value that is not empty is chosen). The
          others go to the trash, marked as merged into it; you can undo the merge from its record.
        </p>
      </div>
      {rows.length < parsed.value.ids.length ? (
        <p role="status" className="text-sm text-amber-900">Some of these subscribers are no longer there: the merge names those that are.</p>
      ) : null}
      <MergeForm members={members} />
    </div>
  );
}
