"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { Controller, useWatch } from "react-hook-form";
import { PasswordStrength } from "@/components/password-strength";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { useActionForm } from "@/components/ui/use-action-form";
import { useProblemWords } from "@/lib/i18n/client";
import { userCreateSchema } from "@/lib/users/schema";
import { createUserAction } from "../actions";
import { BranchPicker, type BranchChoice } from "../branch-picker";
import { LinkDialog } from "../link-dialog";

/** `branches`: the choices of a staff member's branches (an administrator always sees every branch). */
export function UserForm({ branches }: { branches: BranchChoice[] }) {
  const t = useTranslations("users");
  const words = useProblemWords();
  const router = useRouter();
  const [how, setHow] = useState<"link" | "password">("link");
  const [made, setMade] = useState<{ url: string; name: string } | null>(null);
  const { register, control, errors, isSubmitting, formError, onSubmit } = useActionForm(
    {
      resolver: zodResolver(userCreateSchema),
      defaultValues: { name: "", email: "", role: "staff", password: "", branch_ids: null },
      shouldUnregister: true, // a password typed, then "link" chosen, is not sent nor checked; nor branches once "Administrator" is chosen
    },
    {
      fields: ["name", "email", "role", "password", "branch_ids"],
      failed: t("form.failed"),
      send: (values) => createUserAction({ ...values, password: how === "password" ? values.password : undefined }),
      done: (result, values) => {
        notify("success", result.message ?? t("form.created"));
        if (result.data.setPasswordUrl) setMade({ url: result.data.setPasswordUrl, name: values.name });
        else router.push("/users");
      },
    },
  );
  const [password, name, email, role] = useWatch({ control, name: ["password", "name", "email", "role"] });

  return (
    <>
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <Field label={t("table.name")} error={errors.name?.message}>
          {(props) => <input {...props} autoFocus maxLength={100} autoComplete="off" {...register("name")} />}
        </Field>
        <Field label={t("table.email")} error={errors.email?.message} hint={t("form.emailHint")}>
          {(props) => <input {...props} type="email" maxLength={254} autoComplete="off" {...register("email")} />}
        </Field>
        <Field label={t("table.role")} error={errors.role?.message} hint={t("form.roleHint")}>
          {(props) => (
            <select {...props} {...register("role")}>
              <option value="staff">{t("role.staff")}</option>
              <option value="admin">{t("role.admin")}</option>
            </select>
          )}
        </Field>
        {role === "staff" ? (
          <Controller
            control={control}
            name="branch_ids"
            render={({ field, fieldState }) => (
              <BranchPicker
                branches={branches}
                value={field.value ?? null}
                onChange={field.onChange}
                error={fieldState.error?.type === "too_small" ? t("picker.tickOne") : fieldState.error?.message && words(fieldState.error.message)}
              />
            )}
          />
        ) : null}
        <fieldset>
          <legend className="block text-sm font-medium text-slate-700">{t("form.password")}</legend>
          <div className="mt-2 space-y-2 text-sm">
            <label className="flex items-start gap-2">
              <input type="radio" name="how" value="link" checked={how === "link"} onChange={() => setHow("link")} className="mt-0.5" />
              <span>{t("form.howLink")}</span>
            </label>
            <label className="flex items-start gap-2">
              <input type="radio" name="how" value="password" checked={how === "password"} onChange={() => setHow("password")} className="mt-0.5" />
              <span>{t("form.howPassword")}</span>
            </label>
          </div>
        </fieldset>
        {how === "password" ? (
          <div>
            <Field label={t("form.initialPassword")} error={errors.password?.message} hint={t("form.passwordHint")}>
              {(props) => <input {...props} type="password" autoComplete="new-password" maxLength={200} {...register("password")} />}
            </Field>
            <PasswordStrength password={password ?? ""} userInputs={[name, email]} />
          </div>
        ) : null}
        <FormAlert message={formError} />
        <div className="flex flex-wrap gap-3">
          <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
            {isSubmitting ? t("form.creating") : t("form.create")}
          </button>
          <Link href="/users" className={buttonClass.secondary}>
            {t("form.cancel")}
          </Link>
        </div>
      </form>
      <LinkDialog url={made?.url ?? null} name={made?.name ?? ""} onClose={() => router.push("/users")} />
    </>
  );
}
