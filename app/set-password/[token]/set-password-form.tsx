"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { PasswordStrength } from "@/components/password-strength";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { passwordSetSchema, type PasswordSetInput } from "@/lib/users/schema";
import { setPasswordAction } from "./actions";

export function SetPasswordForm({ token, userInputs }: { token: string; userInputs: string[] }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<PasswordSetInput>({ resolver: zodResolver(passwordSetSchema), defaultValues: { token, password: "", confirm: "" } });

  const password = useWatch({ control, name: "password" });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const result = await setPasswordAction(values);
      if (result.ok) {
        notify("success", result.message ?? "Password set.");
        router.push("/login");
        return;
      }
      const message = result.fieldErrors?.password?.[0];
      if (message) setError("password", { message }, { shouldFocus: true });
      else setFormError(result.formError ?? "The password could not be set.");
    } catch {
      setFormError("The password could not be set. Check your connection and try again.");
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <input type="hidden" {...register("token")} />
      <div>
        <Field label="New password" error={errors.password?.message} hint="At least 12 characters, not a common password.">
          {(props) => <input {...props} type="password" autoFocus autoComplete="new-password" maxLength={200} {...register("password")} />}
        </Field>
        <PasswordStrength password={password} userInputs={userInputs} />
      </div>
      <Field label="Repeat the password" error={errors.confirm?.message}>
        {(props) => <input {...props} type="password" autoComplete="new-password" maxLength={200} {...register("confirm")} />}
      </Field>
      <FormAlert message={formError} />
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={isSubmitting}>
        {isSubmitting ? "Setting…" : "Set password"}
      </button>
    </form>
  );
}
