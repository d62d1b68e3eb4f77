"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { useForm, type FieldValues, type Path, type UseFormProps } from "react-hook-form";
import type { ActionResult } from "@/lib/actions";
import { placeFieldErrors } from "./place-field-errors";
import { callAction } from "@/components/ui/call-action";

type Refusal = Extract<ActionResult<unknown>, { ok: false }>;

/**
 * A react-hook-form form sent to a server action. A refusal's field errors go on `fields` (the
 * first focused); otherwise its message, or `failed`, goes to `formError` (for a FormAlert).
 * `refused` may take a refusal first (a conflict, a stale sign-in): true when it was handled.
 */
export function useActionForm<In extends FieldValues, T, Out = In>(
  props: UseFormProps<In, unknown, Out>,
  {
    fields,
    failed,
    send,
    done,
    refused,
  }: {
    fields: readonly Path<In>[];
    failed: string;
    send: (values: Out) => Promise<ActionResult<T>>;
    done: (result: { data: T; message?: string }, values: Out) => void;
    refused?: (result: Refusal, values: Out) => boolean | void;
  },
) {
  const form = useForm<In, unknown, Out>(props);
  const [formError, setFormError] = useState<string | null>(null);
  const t = useTranslations("ui");
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const result = await callAction(() => send(values));
    if (!result) return setFormError(t("checkConnection", { failed }));
    if (result.ok) return done(result, values);
    if (refused?.(result, values)) return;
    const placed = placeFieldErrors(result.fieldErrors, fields, form.setError);
    setFormError(placed ? null : (result.formError ?? failed));
  });
  return { ...form, errors: form.formState.errors, isSubmitting: form.formState.isSubmitting, formError, setFormError, onSubmit };
}
