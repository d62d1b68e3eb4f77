"use client";

import { ShownOnceDialog } from "@/components/ui/shown-once-dialog";

/** Shown once: closing the dialog loses it (only its hash is stored). */
export function LinkDialog({ url, name, onClose }: { url: string | null; name: string; onClose: () => void }) {
  return (
    <ShownOnceDialog
      value={url}
      title={
        <>
          Set-password link for <bdi>{name}</bdi>
        </>
      }
      note={<p>Send this link to them yourself. It works once, for 24 hours, and is shown only now: copy it before you close this window.</p>}
      label="Link"
      copyLabel="Copy link"
      doneLabel="Done"
      onClose={onClose}
    />
  );
}
