"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { buttonClass } from "@/components/ui/button-styles";
import { loginSchema, type LoginInput } from "@/lib/validation/auth";

export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { email: "", password: "" } });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    const result = await signIn("credentials", { ...values, callbackUrl, redirect: false });
    if (result?.ok && !result.error) {
      router.replace(callbackUrl);
      router.refresh();
      return;
    }
    setFormError(
      result?.status === 429
        ? "Too many sign-in attempts. Wait a few minutes and try again."
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
      <p role="alert" aria-live="assertive" className="min-h-5 text-sm text-red-700">
        {formError}
      </p>
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={isSubmitting}>
        {isSubmitting ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
