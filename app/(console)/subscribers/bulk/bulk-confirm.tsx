"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { FormAlert } from "@/components/ui/form-alert";
import { useFormats } from "@/lib/i18n/client";
import type { BulkChange, BulkTarget } from "@/lib/subscribers/bulk-schema";
import { bulkChangeAction } from "../bulk-actions";
import { callAction } from "@/components/ui/call-action";

export function BulkConfirm({ target, change, count, back }: { target: BulkTarget; change: BulkChange; count: number; back: string }) {
  const t = useTranslations("bulk.confirm");
  const f = useFormats();
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const del = "delete" in change;
  const confirm = () =>
    start(async () => {
      setError(null);
      const result = await callAction(() => bulkChangeAction({ target, change }));
      if (!result) return setError(t("offline"));
      if (!result.ok) return setError(result.formError ?? t("failed"));
      const page = `/subscribers/bulk/${result.data.id}`;
      // Its page has the Undo (and says who undid it); the toast leads there.
      if (result.message) notify("success", result.message, { label: t("undo"), onClick: () => router.push(page) });
      if (result.data.kind === "queued") router.push(page);
      else {
        router.push(back);
        router.refresh();
      }
    });
  return (
    <div className="space-y-3">
      <FormAlert message={error} />
      <button type="button" className={del ? buttonClass.danger : buttonClass.primary} onClick={confirm} disabled={pending}>
        {pending ? t("working") : t(del ? "delete" : "change", { count, n: f.count(count) })}
      </button>
    </div>
  );
}
