"use client";

import { useTranslations } from "next-intl";
import { ShownOnceDialog } from "@/components/ui/shown-once-dialog";

/** Shown once: closing the dialog loses it (only its hash is stored). */
export function LinkDialog({ url, name, onClose }: { url: string | null; name: string; onClose: () => void }) {
  const t = useTranslations("users");
  return (
    <ShownOnceDialog
      value={url}
      title={<>{t.rich("link.title", { name, bdi: (chunks) => <bdi>{chunks}</bdi> })}</>}
      note={<p>{t("link.note")}</p>}
      label={t("link.label")}
      copyLabel={t("link.copy")}
      doneLabel={t("link.done")}
      onClose={onClose}
    />
  );
}
