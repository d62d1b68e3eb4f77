"use client";

import { ShownOnceDialog } from "@/components/ui/shown-once-dialog";

export type ShownSecret = { url: string; secret: string; note: string };

/** A signing secret, shown this once (creation, rotation). */
export function SecretDialog({ shown, onClose }: { shown: ShownSecret | null; onClose: () => void }) {
  return (
    <ShownOnceDialog
      value={shown?.secret ?? null}
      title="Signing secret"
      note={
        <>
          <p className="break-all">
            For <bdi>{shown?.url}</bdi>
          </p>
          <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
            <strong>Shown only once.</strong> Copy it into the receiving application now: the console never shows it again. {shown?.note}
          </p>
        </>
      }
      label="Secret"
      copyLabel="Copy secret"
      doneLabel="I have copied it"
      onClose={onClose}
    />
  );
}
