"use client";

import { useTranslations } from "next-intl";
import { ShownOnceDialog } from "@/components/ui/shown-once-dialog";

export type ShownSecret = { url: string; secret: string; note: string };

/** A signing secret, shown this once (creation, rotation). */
export function SecretDialog({ shown, onClose }: { shown: ShownSecret | null; onClose: () => void }) {
  const t = useTranslations("webhooks.secret");
  return (
    <ShownOnceDialog
      value={shown?.secret ?? null}
      title={t("title")}
      note={
        <>
          <p className="break-all">
            {t.rich("for", { url: shown?.url ?? "", bdi: (c) => <bdi>{c}</bdi> })}
          </p>
          <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
            {t.rich("shownOnce", { b: (c) => <strong>{c}</strong> })} {shown?.note}
          </p>
        </>
      }
      label={t("label")}
      copyLabel={t("copy")}
      doneLabel={t("done")}
      onClose={onClose}
    />
  );
}
