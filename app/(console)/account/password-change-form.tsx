"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useWatch } from "react-hook-form";
import { useTranslations } from "next-intl";
import { PasswordStrength } from "@/components/password-strength";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { useActionForm } from "@/components/ui/use-action-form";
import { passwordChangeSchema } from "@/lib/users/schema";
import { changePasswordAction } from "./actions";

export function PasswordChangeForm({ userInputs }: { userInputs: string[] }) {
  const t = useTranslations("account");
  const { register, reset, control, errors, isSubmitting, formError, onSubmit } = useActionForm(
    { resolver: zodResolver(passwordChangeSchema), defaultValues: { current: "", password: "", confirm: "" } },
    {
      fields: ["current", "password", "confirm"],
      failed: t("password.failed"),
      send: changePasswordAction,
      done: (result) => {
        notify("success", result.message ?? t("password.changed"));
        reset();
      },
    },
  );
  const password = useWatch({ control, name: "password" });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field label={t("password.current")} error={errors.current?.message}>
        {(props) => <input {...props} type="password" autoComplete="current-password" maxLength={200} {...register("current")} />}
      </Field>
      <div>
        <Field label={t("password.new")} error={errors.password?.message} hint={t("password.hint")}>
          {(props) => <input {...props} type="password" autoComplete="new-password" maxLength={200} {...register("password")} />}
        </Field>
        <PasswordStrength password={password} userInputs={userInputs} />
      </div>
      <Field label={t("password.repeat")} error={errors.confirm?.message}>
        {(props) => <input {...props} type="password" autoComplete="new-password" maxLength={200} {...register("confirm")} />}
      </Field>
      <FormAlert message={formError} />
      <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
        {isSubmitting ? t("password.changing") : t("password.submit")}
      </button>
    </form>
  );
}
