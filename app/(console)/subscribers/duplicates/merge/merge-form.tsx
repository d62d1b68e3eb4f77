"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useActionForm } from "@/components/ui/use-action-form";
import { ListTable } from "@/components/list/list-table";
import { notify } from "@/components/toast";
import { Badge, EmptyValue } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button-styles";
import { MERGE_FIELDS, type MergeField } from "@/lib/subscribers/duplicate-schema";
import { mergeAction } from "../actions";
import { FormAlert } from "@/components/ui/form-alert";

export type MergeMember = { id: number; name: string; updated_at: string; texts: Record<MergeField, string | null> };

type Choices = { survivor: string } & Record<MergeField, string>;

/** Per field, the survivor's own value; where it has none, the newest member's (by its last change) that is not empty. */
function preselected(members: MergeMember[], survivor: number): Choices {
  const newest = [...members].sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id - a.id);
  const kept = members.find((m) => m.id === survivor)!;
  const choice = (f: MergeField) => String((kept.texts[f] !== null ? kept : (newest.find((m) => m.texts[f] !== null) ?? kept)).id);
  return { survivor: String(survivor), ...(Object.fromEntries(MERGE_FIELDS.map((f) => [f, choice(f)])) as Record<MergeField, string>) };
}

/** A grid of radios: the survivor in the first row, then whose value each field keeps. */
export function MergeForm({ members, labels }: { members: MergeMember[]; labels: Record<MergeField, string> }) {
  const t = useTranslations("duplicates.mergeForm");
  const router = useRouter();
  // The earliest stays by default: the record the others duplicate.
  const { register, getFieldState, setValue, isSubmitting, formError, onSubmit } = useActionForm(
    { defaultValues: preselected(members, members[0]!.id) },
    {
      fields: [],
      failed: t("failed"),
      send: (choices) => {
        const survivor = Number(choices.survivor);
        const kept = members.find((m) => m.id === survivor)!;
        // Only the values that change the survivor: its history names what the merge took.
        const taken = (f: MergeField) => members.find((m) => m.id === Number(choices[f]))!;
        const values = Object.fromEntries(MERGE_FIELDS.filter((f) => taken(f).texts[f] !== kept.texts[f]).map((f) => [f, taken(f).id]));
        return mergeAction({
          survivor_id: survivor,
          merged_ids: members.filter((m) => m.id !== survivor).map((m) => m.id),
          values,
          updated_at: Object.fromEntries(members.map((m) => [String(m.id), m.updated_at])),
        });
      },
      done: (result) => {
        notify("success", result.message ?? t("done"));
        router.push(`/subscribers/${result.data.survivor_id}`);
      },
      refused: () => router.refresh(),
    },
  );

  // Choosing another survivor moves the fields nobody chose by hand to its values.
  const follow = (survivor: number) => {
    const choices = preselected(members, survivor);
    for (const f of MERGE_FIELDS) if (!getFieldState(f).isDirty) setValue(f, choices[f]);
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <ListTable
        caption={t("caption")}
        header={
          <>
            <th scope="col" className="px-3 py-2 text-start font-medium text-slate-600">{t("field")}</th>
            {members.map((m) => (
              <th key={m.id} scope="col" className="px-3 py-2 text-start font-medium">
                #{m.id} <bdi>{m.name}</bdi>
              </th>
            ))}
          </>
        }
      >
        <tr className="bg-slate-50/70">
          <th scope="row" className="whitespace-nowrap px-3 py-2 text-start font-medium text-slate-700">{t("stays")}</th>
          {members.map((m) => (
            <td key={m.id} className="px-3 py-2">
              <label className="inline-flex items-center gap-2">
                <input type="radio" value={String(m.id)} {...register("survivor", { onChange: (event) => follow(Number(event.target.value)) })} />
                <span>{t("keep", { id: m.id })}</span>
              </label>
            </td>
          ))}
        </tr>
        {MERGE_FIELDS.map((field) => {
          const differs = new Set(members.map((m) => m.texts[field])).size > 1;
          return (
            <tr key={field} className={differs ? "bg-amber-50/70" : undefined}>
              <th scope="row" className="whitespace-nowrap px-3 py-2 text-start font-normal text-slate-600">
                {labels[field]} {differs ? <Badge tone="amber">{t("differs")}</Badge> : null}
              </th>
              {members.map((m) => (
                <td key={m.id} className="px-3 py-2">
                  <label className="inline-flex items-center gap-2">
                    <input type="radio" value={String(m.id)} aria-label={t("from", { field: labels[field], id: m.id })} {...register(field)} />
                    {m.texts[field] === null ? <EmptyValue /> : <bdi dir={field === "mobile" ? "ltr" : undefined}>{m.texts[field]}</bdi>}
                  </label>
                </td>
              ))}
            </tr>
          );
        })}
      </ListTable>
      <FormAlert message={formError} />
      <div className="flex gap-3">
        <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
          {isSubmitting ? t("merging") : t("merge")}
        </button>
        <Link href="/subscribers/duplicates" className={buttonClass.secondary}>
          {t("cancel")}
        </Link>
      </div>
    </form>
  );
}
