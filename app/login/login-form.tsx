"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { buttonClass } from "@/components/ui/button-styles";
import { TWO_FACTOR_CODE_USED, TWO_FACTOR_REQUIRED, loginSchema, type LoginInput } from "@/lib/validation/auth";

export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const router = useRouter();
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
      setFormError(askCode ? "Enter the code from your authenticator app." : null);
      return;
    }
    if (result?.error === TWO_FACTOR_CODE_USED) {
      setFocus("code");
      setFormError("That code was already used: wait for your app to show the next one, or use a recovery code you have not used.");
      return;
    }
    setFormError(
      result?.status === 429
        ? "Too many sign-in attempts. Wait a few minutes and try again."
        : askCode
          ? "Invalid email, password or code (each code works once)."
          : "Invalid email or password.",
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <Field label="Email" error={errors.email?.message}>
        {(props) => <input {...props} type="email" autoComplete="username" autoFocus {...register("email")} />}
      </Field>
      <Field label="Password" error={errors.password?.message}>
        {(props) => <input {...props} type="password" autoComplete="current-password" {...register("password")} />}
      </Field>
      {askCode ? (
        <Field label="Two-factor code" error={errors.code?.message} hint="The 6 digits your authenticator app shows, or a recovery code.">
          {(props) => <input {...props} autoComplete="one-time-code" autoFocus maxLength={40} {...register("code")} />}
        </Field>
      ) : null}
      <p role="alert" aria-live="assertive" className="min-h-5 text-sm text-red-700">
        {formError}
      </p>
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={isSubmitting}>
        {isSubmitting ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
