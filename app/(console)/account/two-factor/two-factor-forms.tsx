"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { z } from "zod";
import { useRouter } from "next/navigation";
import { createContext, useContext, useState } from "react";
import { useTranslations } from "next-intl";
import { problem } from "@/lib/i18n/problem";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { useActionForm } from "@/components/ui/use-action-form";
import type { ActionResult } from "@/lib/actions";
import { SsoButton } from "@/app/login/sso-button";
import { twoFactorConfirmSchema, twoFactorOffSchema, twoFactorStartSchema } from "@/lib/validation/auth";
import { confirmTwoFactorAction, newRecoveryCodesAction, startTwoFactorAction, turnOffTwoFactorAction } from "./actions";

/** A single sign-on session's way to confirm who is there: its provider's name, and whether it signed in recently enough. */
export type SsoConfirm = { name: string; providerId: string; recent: boolean } | null;

const passwordRequired = z.object({ password: z.string().min(1, problem("users.passwordRequired")).max(200) });

/** What a fresh sign-in confirms: each its own sentence (twoFactor.signInAgain.*). */
type Purpose = "setUp" | "newCodes" | "turnOff";

/** Sends a single sign-on user to the provider and back here: a fresh sign-in confirms who is there. */
function SignInAgain({ sso, what }: { sso: NonNullable<SsoConfirm>; what: Purpose }) {
  const t = useTranslations("twoFactor");
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-700">{t(`signInAgain.${what}`, { minutes: 10 })}</p>
      <SsoButton name={sso.name} providerId={sso.providerId} callbackUrl="/account/two-factor" primary />
    </div>
  );
}

/**
 * The step that shows it is the user before a two-factor secret or recovery codes are made: the
 * current password, or for single sign-on a sign-in of the last 10 minutes.
 */
function ConfirmItIsYou<T>({
  sso,
  what,
  send,
  done,
  failed,
  submit,
  primary,
}: {
  sso: SsoConfirm;
  /** What the confirmation is for (the sentence asking for a fresh sign-in). */
  what: Purpose;
  send: (values: { password?: string }) => Promise<ActionResult<T>>;
  done: (data: T) => void;
  failed: string;
  submit: { idle: string; busy: string };
  primary?: boolean;
}) {
  const t = useTranslations("twoFactor");
  const [stale, setStale] = useState(false);
  const { register, errors, isSubmitting, formError, onSubmit } = useActionForm(
    { resolver: zodResolver(sso ? twoFactorStartSchema : passwordRequired), defaultValues: { password: "" } },
    {
      fields: ["password"],
      failed,
      send,
      done: (result) => done(result.data),
      refused: (result) => {
        if (result.details?.sign_in_again) setStale(true);
      },
    },
  );

  if (sso && (!sso.recent || stale)) return <SignInAgain sso={sso} what={what} />;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {sso ? null : (
        <Field label={t("password")} hint={t("passwordHint")} error={errors.password?.message}>
          {(props) => <input {...props} type="password" autoComplete="current-password" maxLength={200} {...register("password")} />}
        </Field>
      )}
      <FormAlert message={formError} />
      <button type="submit" className={primary ? buttonClass.primary : buttonClass.secondary} disabled={isSubmitting}>
        {isSubmitting ? submit.busy : submit.idle}
      </button>
    </form>
  );
}

/** Starts the set-up once it is the user; the secret and its QR code are shown only here, then confirmed with a code. */
export function StartTwoFactorForm({ sso }: { sso: SsoConfirm }) {
  const t = useTranslations("twoFactor");
  const [setUp, setSetUp] = useState<{ secret: string; qr: string } | null>(null);

  if (setUp) {
    return (
      <div>
        <ol className="list-decimal space-y-1 ps-5 text-sm text-slate-700">
          <li>{t("steps.scan")}</li>
          <li>{t("steps.type")}</li>
        </ol>
        {/* eslint-disable-next-line @next/next/no-img-element -- an SVG made on the server, inline as data: */}
        <img src={setUp.qr} alt={t("qrAlt")} width={200} height={200} className="mt-4 rounded border border-slate-200" />
        <p className="mt-3 text-sm text-slate-700">
          {t.rich("secret", {
            secret: setUp.secret,
            code: (chunks) => (
              <code dir="ltr" className="break-all rounded bg-slate-100 px-1 font-mono" data-testid="two-factor-secret">
                {chunks}
              </code>
            ),
          })}
        </p>
        <div className="mt-4">
          <ConfirmTwoFactorForm />
        </div>
      </div>
    );
  }
  return (
    <ConfirmItIsYou
      sso={sso}
      what="setUp"
      send={startTwoFactorAction}
      done={setSetUp}
      failed={t("startFailed")}
      submit={{ idle: t("setUp"), busy: t("starting") }}
      primary
    />
  );
}

/** Where a confirmed set-up hands its recovery codes, to be shown by TwoFactorPanel. */
const ShowRecoveryCodes = createContext<(codes: string[]) => void>(() => {});

/**
 * The set-up's or the turn-off's panel. Turning codes on re-issues the session cookie, so the page
 * is rendered again in its "on" state; this panel stays mounted across that, and shows the new
 * recovery codes (the only time they are shown) in place of whatever the page now holds.
 */
export function TwoFactorPanel({ children }: { children: React.ReactNode }) {
  const t = useTranslations("twoFactor");
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes) {
    return (
      <div role="status" className="space-y-3">
        {/* The section's heading (the page's aria-labelledby), in place of the one the panel replaces. */}
        <h2 id="state-heading" className="text-lg font-semibold">
          {t("on")}
        </h2>
        <p className="font-medium text-emerald-800">{t("nowOn")}</p>
        <p className="text-sm text-slate-700">{t("keepCodes")}</p>
        <ul aria-label={t("recoveryHeading")} dir="ltr" className="grid grid-cols-2 gap-1 rounded bg-slate-100 p-3 font-mono text-sm">
          {codes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <div className="flex gap-3">
          <button type="button" className={buttonClass.secondary} onClick={() => copyCodes(codes, { copied: t("copied"), failed: t("copyFailed") })}>
            {t("copyCodes")}
          </button>
          <Link href="/account" className={buttonClass.primary}>
            {t("done")}
          </Link>
        </div>
      </div>
    );
  }
  return <ShowRecoveryCodes.Provider value={setCodes}>{children}</ShowRecoveryCodes.Provider>;
}

async function copyCodes(codes: string[], say: { copied: string; failed: string }) {
  try {
    await navigator.clipboard.writeText(codes.join("\n"));
    notify("success", say.copied);
  } catch {
    notify("error", say.failed);
  }
}

/** Replaces the recovery codes once it is the user; the new ones go to TwoFactorPanel. */
export function NewRecoveryCodesForm({ sso }: { sso: SsoConfirm }) {
  const t = useTranslations("twoFactor");
  const showCodes = useContext(ShowRecoveryCodes);
  return (
    <ConfirmItIsYou
      sso={sso}
      what="newCodes"
      send={newRecoveryCodesAction}
      done={(data) => showCodes(data.recoveryCodes)}
      failed={t("newCodesFailed")}
      submit={{ idle: t("newCodes"), busy: t("makingCodes") }}
    />
  );
}

/** Confirms the set-up with a current code; the recovery codes go to TwoFactorPanel. */
export function ConfirmTwoFactorForm() {
  const t = useTranslations("twoFactor");
  const showCodes = useContext(ShowRecoveryCodes);
  const { register, errors, isSubmitting, formError, onSubmit } = useActionForm(
    { resolver: zodResolver(twoFactorConfirmSchema), defaultValues: { code: "" } },
    {
      fields: ["code"],
      failed: t("turnOnFailed"),
      send: confirmTwoFactorAction,
      done: (result) => showCodes(result.data.recoveryCodes),
    },
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field label={t("code")} error={errors.code?.message}>
        {(props) => <input {...props} inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...register("code")} />}
      </Field>
      <FormAlert message={formError} />
      <button type="submit" className={buttonClass.primary} disabled={isSubmitting}>
        {isSubmitting ? t("confirming") : t("turnOn")}
      </button>
    </form>
  );
}

export function TurnOffTwoFactorForm({ sso }: { sso: SsoConfirm }) {
  const t = useTranslations("twoFactor");
  const router = useRouter();
  const [stale, setStale] = useState(false);
  const { register, errors, isSubmitting, formError, onSubmit } = useActionForm(
    { resolver: zodResolver(sso ? twoFactorOffSchema : twoFactorOffSchema.extend(passwordRequired.shape)), defaultValues: { password: "", code: "" } },
    {
      fields: ["password", "code"],
      failed: t("turnOffFailed"),
      send: turnOffTwoFactorAction,
      done: (result) => {
        notify("success", result.message ?? t("nowOff"));
        router.refresh();
      },
      refused: (result) => {
        if (result.details?.sign_in_again) setStale(true);
      },
    },
  );

  if (sso && (!sso.recent || stale)) return <SignInAgain sso={sso} what="turnOff" />;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {sso ? null : (
        <Field label={t("password")} error={errors.password?.message}>
          {(props) => <input {...props} type="password" autoComplete="current-password" maxLength={200} {...register("password")} />}
        </Field>
      )}
      <Field label={t("codeOrRecovery")} error={errors.code?.message}>
        {(props) => <input {...props} autoComplete="one-time-code" maxLength={40} {...register("code")} />}
      </Field>
      <FormAlert message={formError} />
      <button type="submit" className={buttonClass.danger} disabled={isSubmitting}>
        {isSubmitting ? t("turningOff") : t("turnOffHeading")}
      </button>
    </form>
  );
}
