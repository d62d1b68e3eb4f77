"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useWatch } from "react-hook-form";
import { PasswordStrength } from "@/components/password-strength";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { useActionForm } from "@/components/ui/use-action-form";
import { passwordSetSchema } from "@/lib/users/schema";
import { setPasswordAction } from "./actions";

export function SetPasswordForm({ token, userInputs }: { token: string; userInputs: string[] }) {
  const router = useRouter();
  const t = useTranslations("setPassword");
  const { register, control, errors, isSubmitting, formError, onSubmit } = useActionForm(
    { resolver: zodResolver(passwordSetSchema), defaultValues: { token, password: "", confirm: "" } },
    {
      fields: ["password"],
      failed: t("failed"),
      send: setPasswordAction,
      done: (result) => {
        notify("success", result.message ?? t("done"));
        router.push("/login");
      },
    },
  );
  const password = useWatch({ control, name: "password" });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <input type="hidden" {...register("token")} />
      <div>
        <Field label={t("newPassword")} error={errors.password?.message} hint={t("hint")}>
          {(props) => <input {...props} type="password" autoFocus autoComplete="new-password" maxLength={200} {...register("password")} />}
        </Field>
        <PasswordStrength password={password} userInputs={userInputs} />
      </div>
      <Field label={t("repeat")} error={errors.confirm?.message}>
        {(props) => <input {...props} type="password" autoComplete="new-password" maxLength={200} {...register("confirm")} />}
      </Field>
      <FormAlert message={formError} />
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={isSubmitting}>
        {isSubmitting ? t("setting") : t("submit")}
      </button>
    </form>
  );
}
