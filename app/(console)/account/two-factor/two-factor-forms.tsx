"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useForm } from "react-hook-form";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { placeFieldErrors } from "@/components/ui/place-field-errors";
import { twoFactorConfirmSchema, twoFactorOffSchema, type TwoFactorConfirmInput, type TwoFactorOffInput } from "@/lib/validation/auth";
import { confirmTwoFactorAction, startTwoFactorAction, turnOffTwoFactorAction } from "./actions";

const OFFLINE = "Check your connection and try again.";

export function StartTwoFactorButton() {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const run = () =>
    start(async () => {
      try {
        const result = await startTwoFactorAction({});
        if (result.ok) router.refresh();
        else setError(result.formError ?? "The set-up could not start.");
      } catch {
        setError(`The set-up could not start. ${OFFLINE}`);
      }
    });
  return (
    <div>
      <button type="button" className={buttonClass.primary} disabled={pending} onClick={run}>
        Set up two-factor
      </button>
      <FormAlert message={error} className="mt-2" />
    </div>
  );
}

/** Confirms the set-up with a current code, then shows the recovery codes: the only time they are shown. */
export function ConfirmTwoFactorForm() {
  const [codes, setCodes] = useState<string[] | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TwoFactorConfirmInput>({ resolver: zodResolver(twoFactorConfirmSchema), defaultValues: { code: "" } });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const result = await confirmTwoFactorAction(values);
      if (result.ok) {
        setCodes(result.data.recoveryCodes);
        return;
      }
      if (result.fieldErrors?.code) setError("code", { message: result.fieldErrors.code[0] }, { shouldFocus: true });
      else setFormError(result.formError ?? "Two-factor sign-in could not be turned on.");
    } catch {
      setFormError(`Two-factor sign-in could not be turned on. ${OFFLINE}`);
    }
  });

  if (codes) {
    return (
      <div role="status" className="space-y-3">
        <p className="font-medium text-emerald-800">Two-factor sign-in is on.</p>
        <p className="text-sm text-slate-700">
          Keep these recovery codes somewhere safe: each signs you in once if you lose your phone. They are shown only now.
        </p>
        <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 rounded bg-slate-100 p-3 font-mono text-sm">
          {codes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <Link href="/account" className={buttonClass.primary}>
          Done
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field label="Code from the app" error={errors.code?.message}>
        {(props) => <input {...props} inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...register("code")} />}
      </Field>
      <FormAlert message={formError} />
      <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
        {isSubmitting ? "Confirming…" : "Turn on"}
      </button>
    </form>
  );
}

export function TurnOffTwoFactorForm() {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TwoFactorOffInput>({ resolver: zodResolver(twoFactorOffSchema), defaultValues: { password: "", code: "" } });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const result = await turnOffTwoFactorAction(values);
      if (result.ok) {
        notify("success", result.message ?? "Two-factor sign-in is off.");
        router.refresh();
        return;
      }
      const placed = placeFieldErrors(result.fieldErrors, ["password", "code"] as const, setError);
      setFormError(placed ? null : (result.formError ?? "Two-factor sign-in could not be turned off."));
    } catch {
      setFormError(`Two-factor sign-in could not be turned off. ${OFFLINE}`);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field label="Password" error={errors.password?.message}>
        {(props) => <input {...props} type="password" autoComplete="current-password" maxLength={200} {...register("password")} />}
      </Field>
      <Field label="Code from the app, or a recovery code" error={errors.code?.message}>
        {(props) => <input {...props} autoComplete="one-time-code" maxLength={40} {...register("code")} />}
      </Field>
      <FormAlert message={formError} />
      <button type="submit" className={buttonClass.danger} disabled={isSubmitting}>
        {isSubmitting ? "Turning off…" : "Turn off"}
      </button>
    </form>
  );
}
