"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
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
  const t = useTranslations("webhooks.actions");
  const [pending, start] = useTransition();
  const run = (work: () => Promise<Outcome>, failure: string) =>
    start(async () => {
      const result = await callAction(work);
      if (!result) notify("error", t("offline", { failure }));
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
  const t = useTranslations("webhooks.actions");
  const [shown, setShown] = useState<ShownSecret | null>(null);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <WebhookFormButton webhook={webhook} events={events} label={t("edit")} ariaLabel={t("editAria", { url: webhook.url })} className={`${buttonClass.secondary} ${small}`} />
      <button
        type="button"
        className={`${buttonClass.secondary} ${small}`}
        disabled={pending}
        aria-label={webhook.enabled ? t("turnOffAria", { url: webhook.url }) : t("turnOnAria", { url: webhook.url })}
        onClick={() => run(() => updateWebhookAction({ id: webhook.id, enabled: !webhook.enabled }), t("changeFailed"))}
      >
        {webhook.enabled ? t("turnOff") : t("turnOn")}
      </button>
      <button
        type="button"
        className={`${buttonClass.secondary} ${small}`}
        disabled={pending}
        aria-label={t("testAria", { url: webhook.url })}
        onClick={() => run(() => sendTestWebhookAction({ id: webhook.id }), t("testFailed"))}
      >
        {t("test")}
      </button>
      <ConfirmActionButton
        label={t("rotate")}
        ariaLabel={t("rotateAria", { url: webhook.url })}
        className={`${buttonClass.secondary} ${small}`}
        title={t("rotateTitle", { url: webhook.url })}
        confirmLabel={t("rotate")}
        run={() => rotateWebhookSecretAction({ id: webhook.id })}
        done={t("rotateDone")}
        failed={t("rotateFailed")}
        then={(result, r) => {
          setShown({ url: result.data.url, secret: result.data.secret, note: t("rotatedNote", { hours: result.data.hours }) });
          r.refresh();
        }}
      >
        {t("rotateBody", { hours: overlapHours })}
      </ConfirmActionButton>
      <ConfirmActionButton
        label={t("delete")}
        ariaLabel={t("deleteAria", { url: webhook.url })}
        className={`${buttonClass.danger} ${small}`}
        title={t("deleteTitle", { url: webhook.url })}
        confirmLabel={t("deleteConfirm")}
        run={() => deleteWebhookAction({ id: webhook.id })}
        done={t("deleteDone")}
        failed={t("deleteFailed")}
        refreshOnFailure
        then={(_result, r) => (afterDelete ? r.push(afterDelete) : r.refresh())}
      >
        {t.rich("deleteBody", { url: webhook.url, bdi: (c) => <bdi className="break-all">{c}</bdi> })}
      </ConfirmActionButton>
      <SecretDialog shown={shown} onClose={() => setShown(null)} />
    </div>
  );
}

/** One delivery sent again, at once (whatever its status). */
export function ResendButton({ webhookId, deliveryId, label }: { webhookId: number; deliveryId: number; label: string }) {
  const [pending, run] = useRun();
  const t = useTranslations("webhooks.actions");
  return (
    <button
      type="button"
      className={`${buttonClass.secondary} ${small}`}
      disabled={pending}
      aria-label={label}
      onClick={() => run(() => resendDeliveryAction({ id: webhookId, delivery_id: deliveryId }), t("resendFailed"))}
    >
      {t("resend")}
    </button>
  );
}
