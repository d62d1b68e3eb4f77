"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useWatch } from "react-hook-form";
import { PasswordStrength } from "@/components/password-strength";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { useActionForm } from "@/components/ui/use-action-form";
import { passwordChangeSchema } from "@/lib/users/schema";
import { changePasswordAction } from "./actions";

export function PasswordChangeForm({ userInputs }: { userInputs: string[] }) {
  const { register, reset, control, errors, isSubmitting, formError, onSubmit } = useActionForm(
    { resolver: zodResolver(passwordChangeSchema), defaultValues: { current: "", password: "", confirm: "" } },
    {
      fields: ["current", "password", "confirm"],
      failed: "The password could not be changed.",
      send: changePasswordAction,
      done: (result) => {
        notify("success", result.message ?? "Password changed.");
        reset();
      },
    },
  );
  const password = useWatch({ control, name: "password" });

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
