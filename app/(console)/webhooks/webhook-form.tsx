"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Modal } from "@/components/ui/modal";
import { useActionForm } from "@/components/ui/use-action-form";
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
          setShown({ ...made, note: "Deliveries are signed with it (the webhook-signature header)." });
          router.refresh();
        }}
      />
      <SecretDialog shown={shown} onClose={() => setShown(null)} />
    </>
  );
}

function FormDialog({ open, webhook, events, onClose, onCreated }: { open: boolean; webhook?: EditedWebhook; events: readonly string[]; onClose: () => void; onCreated: (made: { url: string; secret: string }) => void }) {
  const id = useId();
  return (
    <Modal open={open} onClose={onClose} labelledBy={`${id}-title`}>
      <div className="p-6 whitespace-normal">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          {webhook ? "Edit endpoint" : "New endpoint"}
        </h2>
        <WebhookForm webhook={webhook} events={events} onCancel={onClose} onCreated={onCreated} />
      </div>
    </Modal>
  );
}

function WebhookForm({ webhook, events, onCancel, onCreated }: { webhook?: EditedWebhook; events: readonly string[]; onCancel: () => void; onCreated: (made: { url: string; secret: string }) => void }) {
  const router = useRouter();
  const id = useId();
  const { register, errors, isSubmitting, formError, onSubmit } = useActionForm<Values, { id: number; url: string; secret: string } | undefined>(
    { defaultValues: { url: webhook?.url ?? "", description: webhook?.description ?? "", events: webhook?.events ?? [] } },
    {
      fields: ["url", "description", "events"],
      failed: webhook ? "The endpoint could not be saved." : "The endpoint could not be added.",
      send: (values) => {
        const input = { ...values, events: Array.isArray(values.events) ? values.events : [] };
        return webhook ? updateWebhookAction({ id: webhook.id, ...input }) : createWebhookAction(input);
      },
      done: (result) => {
        if (result.data) return onCreated(result.data);
        notify("success", result.message ?? "Endpoint saved.");
        onCancel();
        router.refresh();
      },
    },
  );
  const eventsError = errors.events?.message ?? (Array.isArray(errors.events) ? undefined : errors.events?.root?.message);
  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
      <Field label="URL" error={errors.url?.message} hint="Where the console sends events, with POST: https://…">
        {(props) => <input {...props} type="url" autoFocus maxLength={2000} autoComplete="off" placeholder="https://example.com/webhooks" {...register("url")} />}
      </Field>
      <Field label="Description" error={errors.description?.message} hint="Optional: what receives them.">
        {(props) => <input {...props} maxLength={500} autoComplete="off" {...register("description")} />}
      </Field>
      <fieldset aria-describedby={eventsError ? `${id}-events-error` : undefined}>
        <legend className="block text-sm font-medium text-slate-700">Events</legend>
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
          Cancel
        </button>
        <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
          {isSubmitting ? "Saving…" : webhook ? "Save endpoint" : "Add endpoint"}
        </button>
      </div>
    </form>
  );
}
