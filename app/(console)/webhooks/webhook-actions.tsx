"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmActionButton } from "@/components/ui/confirm-action-button";
import { callAction } from "@/components/ui/call-action";
import { deleteWebhookAction, resendDeliveryAction, rotateWebhookSecretAction, sendTestWebhookAction, updateWebhookAction } from "./actions";
import { SecretDialog, type ShownSecret } from "./secret-dialog";
import { WebhookFormButton, type EditedWebhook } from "./webhook-form";

type Endpoint = EditedWebhook & { enabled: boolean };

const small = "px-2.5 py-1.5";

type Outcome = { ok: true; message?: string } | { ok: false; formError?: string };

/** Runs an action: its message as a toast and the page refreshed, or its refusal (or the connection's) as an error toast. */
function useRun() {
  const router = useRouter();
  const [pending, start] = useTransition();
  const run = (work: () => Promise<Outcome>, failure: string) =>
    start(async () => {
      const result = await callAction(work);
      if (!result) notify("error", `${failure} Check your connection and try again.`);
      else if (!result.ok) notify("error", result.formError ?? failure);
      else {
        if (result.message) notify("success", result.message);
        router.refresh();
      }
    });
  return [pending, run] as const;
}

/** An endpoint's actions: edit, on/off, test, rotate (confirmed) and delete (confirmed, naming its URL). */
export function WebhookActions({ webhook, events, overlapHours, afterDelete }: { webhook: Endpoint; events: readonly string[]; overlapHours: number; afterDelete?: string }) {
  const [pending, run] = useRun();
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const hours = `${overlapHours} hour${overlapHours === 1 ? "" : "s"}`;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <WebhookFormButton webhook={webhook} events={events} label="Edit" ariaLabel={`Edit ${webhook.url}`} className={`${buttonClass.secondary} ${small}`} />
      <button
        type="button"
        className={`${buttonClass.secondary} ${small}`}
        disabled={pending}
        aria-label={`${webhook.enabled ? "Turn off" : "Turn on"} ${webhook.url}`}
        onClick={() => run(() => updateWebhookAction({ id: webhook.id, enabled: !webhook.enabled }), "The endpoint could not be changed.")}
      >
        {webhook.enabled ? "Turn off" : "Turn on"}
      </button>
      <button
        type="button"
        className={`${buttonClass.secondary} ${small}`}
        disabled={pending}
        aria-label={`Send test event to ${webhook.url}`}
        onClick={() => run(() => sendTestWebhookAction({ id: webhook.id }), "The test event could not be queued.")}
      >
        Send test event
      </button>
      <ConfirmActionButton
        label="Rotate secret"
        ariaLabel={`Rotate secret of ${webhook.url}`}
        className={`${buttonClass.secondary} ${small}`}
        title={`Make a new secret for ${webhook.url}?`}
        confirmLabel="Rotate secret"
        run={() => rotateWebhookSecretAction({ id: webhook.id })}
        done="New secret made."
        failed="No new secret could be made."
        then={(result, r) => {
          setShown({ url: result.data.url, secret: result.data.secret, note: `The old secret stays valid for ${result.data.hours} hours: deliveries carry both signatures until then.` });
          r.refresh();
        }}
      >
        Deliveries are signed with a new secret, shown once. The old secret stays valid for {hours}, so the receiver can switch over; after that only the new one
        signs.
      </ConfirmActionButton>
      <ConfirmActionButton
        label="Delete"
        ariaLabel={`Delete ${webhook.url}`}
        className={`${buttonClass.danger} ${small}`}
        title={`Delete the endpoint ${webhook.url}?`}
        confirmLabel="Delete endpoint"
        run={() => deleteWebhookAction({ id: webhook.id })}
        done="Endpoint deleted."
        failed="The endpoint could not be deleted."
        refreshOnFailure
        then={(_result, r) => (afterDelete ? r.push(afterDelete) : r.refresh())}
      >
        No more events are sent to <bdi className="break-all">{webhook.url}</bdi>, and its deliveries are deleted with it. This cannot be undone: add it again
        for a new secret.
      </ConfirmActionButton>
      <SecretDialog shown={shown} onClose={() => setShown(null)} />
    </div>
  );
}

/** One delivery sent again, at once (whatever its status). */
export function ResendButton({ webhookId, deliveryId, label }: { webhookId: number; deliveryId: number; label: string }) {
  const [pending, run] = useRun();
  return (
    <button
      type="button"
      className={`${buttonClass.secondary} ${small}`}
      disabled={pending}
      aria-label={label}
      onClick={() => run(() => resendDeliveryAction({ id: webhookId, delivery_id: deliveryId }), "The delivery could not be queued again.")}
    >
      Resend
    </button>
  );
}
