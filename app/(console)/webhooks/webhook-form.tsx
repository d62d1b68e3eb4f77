"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Modal } from "@/components/ui/modal";
import { useActionForm } from "@/components/ui/use-action-form";
import { useProblemWords } from "@/lib/i18n/client";
import { createWebhookAction, updateWebhookAction } from "./actions";
import { SecretDialog, type ShownSecret } from "./secret-dialog";

export type EditedWebhook = { id: number; url: string; description: string; events: string[] };
type Values = { url: string; description: string; events: string[] };

// The form's values are checked by its action (lib/webhooks/schema.ts, the API's parser): the
// browser loads no second copy of the event list or the URL rules.

/** "New endpoint" (no `webhook`) or "Edit" (a row's): a dialog with the form; after creation, the secret once. */
export function WebhookFormButton({ webhook, events, label, className, ariaLabel }: { webhook?: EditedWebhook; events: readonly string[]; label: string; className: string; ariaLabel?: string }) {
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const router = useRouter();
  const t = useTranslations("webhooks.form");
  return (
    <>
      <button type="button" className={className} aria-label={ariaLabel} onClick={() => setOpen(true)}>
        {label}
      </button>
      <FormDialog
        open={open}
        webhook={webhook}
        events={events}
        onClose={() => setOpen(false)}
        onCreated={(made) => {
          setOpen(false);
          setShown({ ...made, note: t("createdNote") });
          router.refresh();
        }}
      />
      <SecretDialog shown={shown} onClose={() => setShown(null)} />
    </>
  );
}

function FormDialog({ open, webhook, events, onClose, onCreated }: { open: boolean; webhook?: EditedWebhook; events: readonly string[]; onClose: () => void; onCreated: (made: { url: string; secret: string }) => void }) {
  const id = useId();
  const t = useTranslations("webhooks.form");
  return (
    <Modal open={open} onClose={onClose} labelledBy={`${id}-title`}>
      <div className="p-6 whitespace-normal">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          {webhook ? t("editTitle") : t("newTitle")}
        </h2>
        <WebhookForm webhook={webhook} events={events} onCancel={onClose} onCreated={onCreated} />
      </div>
    </Modal>
  );
}

function WebhookForm({ webhook, events, onCancel, onCreated }: { webhook?: EditedWebhook; events: readonly string[]; onCancel: () => void; onCreated: (made: { url: string; secret: string }) => void }) {
  const router = useRouter();
  const id = useId();
  const t = useTranslations("webhooks.form");
  const words = useProblemWords();
  const { register, errors, isSubmitting, formError, onSubmit } = useActionForm<Values, { id: number; url: string; secret: string } | undefined>(
    { defaultValues: { url: webhook?.url ?? "", description: webhook?.description ?? "", events: webhook?.events ?? [] } },
    {
      fields: ["url", "description", "events"],
      failed: webhook ? t("saveFailed") : t("addFailed"),
      send: (values) => {
        const input = { ...values, events: Array.isArray(values.events) ? values.events : [] };
        return webhook ? updateWebhookAction({ id: webhook.id, ...input }) : createWebhookAction(input);
      },
      done: (result) => {
        if (result.data) return onCreated(result.data);
        notify("success", result.message ?? t("saved"));
        onCancel();
        router.refresh();
      },
    },
  );
  const eventsMessage = errors.events?.message ?? (Array.isArray(errors.events) ? undefined : errors.events?.root?.message);
  const eventsError = eventsMessage && words(eventsMessage);
  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
      <Field label={t("url")} error={errors.url?.message} hint={t("urlHint")}>
        {(props) => <input {...props} type="url" autoFocus maxLength={2000} autoComplete="off" placeholder="https://example.com/webhooks" dir="ltr" {...register("url")} />}
      </Field>
      <Field label={t("description")} error={errors.description?.message} hint={t("descriptionHint")}>
        {(props) => <input {...props} maxLength={500} autoComplete="off" {...register("description")} />}
      </Field>
      <fieldset aria-describedby={eventsError ? `${id}-events-error` : undefined}>
        <legend className="block text-sm font-medium text-slate-700">{t("events")}</legend>
        <div className="mt-2 grid gap-1.5 text-sm sm:grid-cols-2">
          {events.map((event) => (
            <label key={event} className="flex items-center gap-2">
              <input type="checkbox" value={event} {...register("events")} />
              <code className="text-xs">{event}</code>
            </label>
          ))}
        </div>
        {eventsError ? (
          <p id={`${id}-events-error`} className="mt-1 text-sm text-red-700">
            {eventsError}
          </p>
        ) : null}
      </fieldset>
      <FormAlert message={formError} />
      <div className="flex justify-end gap-3">
        <button type="button" className={buttonClass.secondary} onClick={onCancel}>
          {t("cancel")}
        </button>
        <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
          {isSubmitting ? t("saving") : webhook ? t("save") : t("add")}
        </button>
      </div>
    </form>
  );
}
