"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { PasswordStrength } from "@/components/password-strength";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { placeFieldErrors } from "@/components/ui/place-field-errors";
import { passwordChangeSchema, type PasswordChangeInput } from "@/lib/users/schema";
import { changePasswordAction } from "./actions";

const FIELDS = ["current", "password", "confirm"] as const;

export function PasswordChangeForm({ userInputs }: { userInputs: string[] }) {
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm<PasswordChangeInput>({ resolver: zodResolver(passwordChangeSchema), defaultValues: { current: "", password: "", confirm: "" } });

  const password = useWatch({ control, name: "password" });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const result = await changePasswordAction(values);
      if (result.ok) {
        notify("success", result.message ?? "Password changed.");
        reset();
        return;
      }
      const placed = placeFieldErrors(result.fieldErrors, FIELDS, setError);
      setFormError(placed ? null : (result.formError ?? "The password could not be changed."));
    } catch {
      setFormError("The password could not be changed. Check your connection and try again.");
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field label="Current password" error={errors.current?.message}>
        {(props) => <input {...props} type="password" autoComplete="current-password" maxLength={200} {...register("current")} />}
      </Field>
      <div>
        <Field label="New password" error={errors.password?.message} hint="At least 12 characters, not a common password.">
          {(props) => <input {...props} type="password" autoComplete="new-password" maxLength={200} {...register("password")} />}
        </Field>
        <PasswordStrength password={password} userInputs={userInputs} />
      </div>
      <Field label="Repeat the new password" error={errors.confirm?.message}>
        {(props) => <input {...props} type="password" autoComplete="new-password" maxLength={200} {...register("confirm")} />}
      </Field>
      <FormAlert message={formError} />
      <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
        {isSubmitting ? "Changing…" : "Change password"}
      </button>
    </form>
  );
}
