"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { buttonClass } from "@/components/ui/button-styles";
import { TWO_FACTOR_CODE_USED, TWO_FACTOR_REQUIRED, loginSchema, type LoginInput } from "@/lib/validation/auth";

export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const router = useRouter();
  const t = useTranslations("login");
  const [formError, setFormError] = useState<string | null>(null);
  // Set once the server answers that this account needs a code: email and password stay as typed.
  const [askCode, setAskCode] = useState(false);
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { email: "", password: "", code: "" } });

  const onSubmit = handleSubmit(async ({ code, ...values }) => {
    setFormError(null);
    const result = await signIn("credentials", { ...values, ...(askCode && code ? { code } : {}), callbackUrl, redirect: false });
    if (result?.ok && !result.error) {
      router.replace(callbackUrl);
      router.refresh();
      return;
    }
    if (result?.error === TWO_FACTOR_REQUIRED) {
      // The field appears focused (autoFocus on mount); asked again, it is focused again.
      if (askCode) setFocus("code");
      setAskCode(true);
      setFormError(askCode ? t("enterCode") : null);
      return;
    }
    if (result?.error === TWO_FACTOR_CODE_USED) {
      setFocus("code");
      setFormError(t("codeUsed"));
      return;
    }
    setFormError(
      result?.status === 429 ? t("tooManyAttempts") : askCode ? t("invalidWithCode") : t("invalid"),
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <Field label={t("email")} error={errors.email?.message}>
        {(props) => <input {...props} type="email" autoComplete="username" autoFocus {...register("email")} />}
      </Field>
      <Field label={t("password")} error={errors.password?.message}>
        {(props) => <input {...props} type="password" autoComplete="current-password" {...register("password")} />}
      </Field>
      {askCode ? (
        <Field label={t("code")} error={errors.code?.message} hint={t("codeHint")}>
          {(props) => <input {...props} autoComplete="one-time-code" autoFocus maxLength={40} {...register("code")} />}
        </Field>
      ) : null}
      <p role="alert" aria-live="assertive" className="min-h-5 text-sm text-red-700">
        {formError}
      </p>
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={isSubmitting}>
        {isSubmitting ? t("signingIn") : t("signIn")}
      </button>
    </form>
  );
}
