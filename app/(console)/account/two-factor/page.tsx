import type { Metadata } from "next";
import Link from "next/link";
import { requirePageForTwoFactorSetUp } from "@/lib/auth/page-guards";
import { twoFactorState } from "@/lib/auth/two-factor";
import { formatDateTime } from "@/lib/format";
import { ConfirmTwoFactorForm, StartTwoFactorButton, TurnOffTwoFactorForm } from "./two-factor-forms";

export const metadata: Metadata = { title: "Two-factor sign-in" };

export default async function TwoFactorPage({ searchParams }: { searchParams: Promise<{ required?: string | string[] }> }) {
  // The one page a user who still has to set up codes may see (lib/auth/guards.ts).
  const { user } = await requirePageForTwoFactorSetUp("/account/two-factor");
  const required = (await searchParams).required === "1";
  const state = await twoFactorState(user);
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div>
        <p className="text-sm">
          <Link href="/account" className="text-brand-700 underline">
            Your account
          </Link>
        </p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Two-factor sign-in</h1>
        <p className="mt-1 text-sm text-slate-600">
          Signing in with your password also asks for a 6-digit code from an authenticator app on your phone (any app for “TOTP” codes).
        </p>
      </div>
      {required && state.state !== "on" ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          Your organisation requires two-factor sign-in: set it up to continue.
        </p>
      ) : null}
      <section aria-labelledby="state-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        {state.state === "off" ? (
          <>
            <h2 id="state-heading" className="text-lg font-semibold">Off</h2>
            <p className="mt-1 text-sm text-slate-600">You sign in with your password alone.</p>
            <div className="mt-4">
              <StartTwoFactorButton />
            </div>
          </>
        ) : state.state === "setting-up" ? (
          <>
            <h2 id="state-heading" className="text-lg font-semibold">Set up two-factor</h2>
            <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-700">
              <li>Scan this QR code with your authenticator app, or type the secret below into it.</li>
              <li>Type the 6-digit code the app shows to confirm.</li>
            </ol>
            {/* eslint-disable-next-line @next/next/no-img-element -- an SVG made on the server, inline as data: */}
            <img src={state.qr} alt="QR code of your two-factor secret" width={200} height={200} className="mt-4 rounded border border-slate-200" />
            <p className="mt-3 text-sm text-slate-700">
              Secret: <code className="break-all rounded bg-slate-100 px-1 font-mono" data-testid="two-factor-secret">{state.secret}</code>
            </p>
            <div className="mt-4 max-w-xs">
              <ConfirmTwoFactorForm />
            </div>
          </>
        ) : (
          <>
            <h2 id="state-heading" className="text-lg font-semibold">On</h2>
            <p className="mt-1 text-sm text-slate-600">
              Since {formatDateTime(state.since)}. {state.recoveryCodesLeft} of 10 recovery codes left.
            </p>
            <h3 className="mt-6 font-medium">Turn off</h3>
            <p className="mt-1 text-sm text-slate-600">You then sign in with your password alone. Your recovery codes stop working.</p>
            <div className="mt-3 max-w-xs">
              <TurnOffTwoFactorForm />
            </div>
          </>
        )}
      </section>
    </div>
  );
}
