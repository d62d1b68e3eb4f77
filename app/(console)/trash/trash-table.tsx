"use client";

import { useRouter } from "next/navigation";
import { useFormatter, useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { ListTable, PlainHeader } from "@/components/list/list-table";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { TrashKind } from "@/lib/trash/filters";
import { eraseTrashAction, restoreTrashAction } from "./actions";
import { namedRecords } from "./named";
import { callAction } from "@/components/ui/call-action";

export type TrashRow = {
  id: number;
  name: string;
  /** What else tells it apart: a subscriber's email, a branch's nothing. */
  detail: string | null;
  deleted_at: string;
  deleted_at_text: string;
  deleted_by: string | null;
  merged_into: number | null;
};

type Pending = { verb: "restore" | "erase"; rows: TrashRow[] } | null;

/** The trash's rows: Restore and Delete forever on each row and on a selection, each confirmed naming the records. */
export function TrashTable({ kind, rows }: { kind: TrashKind; rows: TrashRow[] }) {
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [confirming, setConfirming] = useState<Pending>(null);
  const [pending, start] = useTransition();
  const router = useRouter();
  const t = useTranslations("trash.table");
  const format = useFormatter();
  const chosen = rows.filter((r) => selected.has(r.id));

  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const run = () =>
    start(async () => {
      if (!confirming) return;
      const input = { kind, ids: confirming.rows.map((r) => r.id) };
      const result = await callAction(() => (confirming.verb === "restore" ? restoreTrashAction(input) : eraseTrashAction(input)));
      if (!result) return notify("error", t("offline"));
      if (result.ok) notify("success", result.message ?? t("done"));
      else notify("error", result.formError ?? t("nothingDone"));
      setConfirming(null);
      setSelected(new Set());
      router.refresh();
    });

  /** A confirmation names the first ten records, then "and N more". */
  const named = (rows: TrashRow[]) =>
    namedRecords(
      rows.map((r) => t("quoted", { name: r.name })),
      (items, options) => format.list(items, options),
      (names, count) => t("andMore", { names, count }),
    );
  const dialog = confirming
    ? confirming.verb === "restore"
      ? {
          title: confirming.rows.length === 1 ? t("restoreOneTitle", { name: confirming.rows[0]!.name }) : t("restoreManyTitle", { kind, count: confirming.rows.length }),
          label: t("restore"),
          body: t("restoreBody", { kind, names: named(confirming.rows) }),
        }
      : {
          title: confirming.rows.length === 1 ? t("eraseOneTitle", { name: confirming.rows[0]!.name }) : t("eraseManyTitle", { kind, count: confirming.rows.length }),
          label: t("erase"),
          body: t("eraseBody", { kind, names: named(confirming.rows) }),
        }
    : null;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2 text-sm" role="group" aria-label={t("selectionGroup")}>
        <span className="text-slate-600" aria-live="polite">
          {chosen.length ? t("selected", { kind, count: chosen.length }) : t("selectHint")}
        </span>
        <button type="button" className={buttonClass.secondary} disabled={!chosen.length} onClick={() => setConfirming({ verb: "restore", rows: chosen })}>
          {t("restoreSelected")}
        </button>
        <button type="button" className={buttonClass.secondary} disabled={!chosen.length} onClick={() => setConfirming({ verb: "erase", rows: chosen })}>
          {t("eraseSelected")}
        </button>
      </div>
      <ListTable
        caption={t("caption", { kind })}
        header={
          <>
            <th scope="col" className="list-th w-10">
              <input
                type="checkbox"
                aria-label={t("selectAll", { kind })}
                className="size-4 rounded border-slate-300 accent-brand-600"
                checked={rows.length > 0 && chosen.length === rows.length}
                onChange={(event) => setSelected(event.currentTarget.checked ? new Set(rows.map((r) => r.id)) : new Set())}
              />
            </th>
            <PlainHeader label={t("column.id")} className="w-20" />
            <PlainHeader label={t("column.name")} />
            <PlainHeader label={t("column.deleted")} />
            <PlainHeader label={t("column.deletedBy")} />
            <PlainHeader label={t("column.actions")} className="text-end" />
          </>
        }
      >
        {rows.map((r) => (
          <tr key={r.id} className="hover:bg-slate-50/60">
            <td className="px-3 py-2.5">
              <input
                type="checkbox"
                aria-label={t("selectRow", { name: r.name })}
                className="size-4 rounded border-slate-300 accent-brand-600"
                checked={selected.has(r.id)}
                onChange={(event) => toggle(r.id, event.currentTarget.checked)}
              />
            </td>
            <td className="px-3 py-2.5 font-mono text-xs text-slate-500">{r.id}</td>
            <td className="px-3 py-2.5">
              <bdi className="font-medium text-slate-900">{r.name}</bdi>
              {r.detail ? (
                <span className="block text-xs text-slate-500">
                  <bdi>{r.detail}</bdi>
                </span>
              ) : null}
              {r.merged_into ? <span className="block text-xs text-slate-500">{t("mergedInto", { id: String(r.merged_into) })}</span> : null}
            </td>
            <td className="whitespace-nowrap px-3 py-2.5 text-slate-600">
              <time dateTime={r.deleted_at}>{r.deleted_at_text}</time>
            </td>
            <td className="px-3 py-2.5 text-slate-600">{r.deleted_by ? <bdi>{r.deleted_by}</bdi> : "—"}</td>
            <td className="whitespace-nowrap px-3 py-1.5 text-end">
              <button
                type="button"
                className="row-action"
                aria-label={t("restoreAria", { name: r.name })}
                onClick={() => setConfirming({ verb: "restore", rows: [r] })}
              >
                {t("restore")}
              </button>
              <button
                type="button"
                className="ms-1 rounded-md px-2.5 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
                aria-label={t("eraseAria", { name: r.name })}
                onClick={() => setConfirming({ verb: "erase", rows: [r] })}
              >
                {t("erase")}
              </button>
            </td>
          </tr>
        ))}
      </ListTable>
      <ConfirmDialog open={confirming !== null} title={dialog?.title ?? ""} confirmLabel={dialog?.label ?? ""} pending={pending} onConfirm={run} onClose={() => setConfirming(null)}>
        {dialog?.body}
      </ConfirmDialog>
    </div>
  );
}
