import type { Metadata } from "next";
import Link from "next/link";
import { requirePageForTwoFactorSetUp } from "@/lib/auth/page-guards";
import { recentSignIn, twoFactorState } from "@/lib/auth/two-factor";
import { SSO_PROVIDER_ID } from "@/lib/auth/sso-claims";
import { singleSignOn } from "@/lib/config";
import { formatDateTime } from "@/lib/format";
import { NewRecoveryCodesForm, StartTwoFactorForm, TurnOffTwoFactorForm, TwoFactorPanel } from "./two-factor-forms";

export const metadata: Metadata = { title: "Two-factor sign-in" };

export default async function TwoFactorPage({ searchParams }: { searchParams: Promise<{ required?: string | string[] }> }) {
  // The one page a user who still has to set up codes may see (lib/auth/guards.ts).
  const principal = await requirePageForTwoFactorSetUp("/account/two-factor");
  const required = (await searchParams).required === "1";
  const state = await twoFactorState(principal.user);
  // A single sign-on session has no password to type: a recent sign-in at the provider confirms it.
  const sso = principal.via === "sso" ? { name: singleSignOn()?.name ?? "single sign-on", providerId: SSO_PROVIDER_ID, recent: recentSignIn(principal) } : null;
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
        <TwoFactorPanel>
        {state.state === "off" ? (
          <>
            <h2 id="state-heading" className="text-lg font-semibold">Off</h2>
            <p className="mt-1 text-sm text-slate-600">
              You sign in with your password alone.{state.started ? " A set-up was started and not confirmed: start again for a new secret." : ""}
            </p>
            <div className="mt-4 max-w-xs">
              <StartTwoFactorForm sso={sso} />
            </div>
          </>
        ) : (
          <>
            <h2 id="state-heading" className="text-lg font-semibold">On</h2>
            <p className="mt-1 text-sm text-slate-600">
              Since {formatDateTime(state.since)}. {state.recoveryCodesLeft} of 10 recovery codes left.
            </p>
            <h3 className="mt-6 font-medium">Recovery codes</h3>
            <p className="mt-1 text-sm text-slate-600">Lost them, or used most? New codes replace all of the old ones.</p>
            <div className="mt-3 max-w-xs">
              <NewRecoveryCodesForm sso={sso} />
            </div>
            <h3 className="mt-6 font-medium">Turn off</h3>
            <p className="mt-1 text-sm text-slate-600">You then sign in with your password alone. Your recovery codes stop working.</p>
            <div className="mt-3 max-w-xs">
              <TurnOffTwoFactorForm sso={sso} />
            </div>
          </>
        )}
        </TwoFactorPanel>
      </section>
    </div>
  );
}
