"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { inputClass } from "@/components/ui/input-styles";
import { FormAlert } from "@/components/ui/form-alert";
import { useActionForm } from "@/components/ui/use-action-form";
import { MAX_TOKEN_DAYS, tokenCreateSchema, type TokenCreateInput } from "@/lib/tokens/schema";
import { createTokenAction } from "./actions";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const blank = (): TokenCreateInput => ({ name: "", scope: "read", expires_at: day(90) });

/** "New token": name, scope and expiry; the token is shown once, right here. */
export function TokenForm() {
  const t = useTranslations("account");
  const router = useRouter();
  const [made, setMade] = useState<{ token: string; name: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const { register, reset, errors, isSubmitting, formError, onSubmit } = useActionForm(
    { resolver: zodResolver(tokenCreateSchema, undefined, { raw: true }), defaultValues: blank() },
    {
      fields: ["name", "scope", "expires_at"],
      failed: t("tokens.form.failed"),
      send: createTokenAction,
      done: (result) => {
        setMade(result.data);
        setCopied(false);
        reset(blank());
        router.refresh();
      },
    },
  );

  const copy = async () => {
    if (!made) return;
    try {
      await navigator.clipboard.writeText(made.token);
      setCopied(true);
    } catch {
      notify("error", t("tokens.form.copyByHand"));
    }
  };

  return (
    <div className="space-y-4">
      {made ? (
        <div role="status" className="rounded-md border border-emerald-300 bg-emerald-50 p-4 text-sm">
          <p className="font-medium text-emerald-900">
            {t.rich("tokens.form.made", { name: made.name, bdi: (chunks) => <bdi>{chunks}</bdi> })}
          </p>
          <label htmlFor="new-token" className="sr-only">
            {t("tokens.form.newToken")}
          </label>
          <input id="new-token" readOnly value={made.token} dir="ltr" className={`${inputClass} mt-2 font-mono text-xs`} onFocus={(e) => e.currentTarget.select()} />
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <button type="button" className={buttonClass.secondary} onClick={copy}>
              {t("tokens.form.copy")}
            </button>
            <span aria-live="polite" className="text-emerald-800">
              {copied ? t("tokens.form.copied") : ""}
            </span>
            <button type="button" className={`${buttonClass.ghost} ms-auto`} onClick={() => setMade(null)}>
              {t("tokens.form.haveCopied")}
            </button>
          </div>
        </div>
      ) : null}
      <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-start">
        <Field label={t("tokens.form.name")} error={errors.name?.message} hint={t("tokens.form.nameHint")}>
          {(props) => <input {...props} maxLength={100} autoComplete="off" {...register("name")} />}
        </Field>
        <Field label={t("tokens.scope")} error={errors.scope?.message}>
          {(props) => (
            <select {...props} {...register("scope")}>
              <option value="read">{t("tokens.scopes.read")}</option>
              <option value="export">{t("tokens.scopes.export")}</option>
            </select>
          )}
        </Field>
        <Field label={t("tokens.form.expires")} error={errors.expires_at?.message} hint={t("tokens.form.expiresHint", { days: MAX_TOKEN_DAYS })}>
          {(props) => <input {...props} type="date" min={day(1)} max={day(MAX_TOKEN_DAYS)} {...register("expires_at")} />}
        </Field>
        <div className="sm:pt-6">
          <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
            {isSubmitting ? t("tokens.form.making") : t("tokens.form.newToken")}
          </button>
        </div>
      </form>
      <FormAlert message={formError} />
    </div>
  );
}
