import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SSO_PROVIDER_ID } from "@/lib/auth/sso-claims";
import { currentUser } from "@/lib/auth/session";
import { config, singleSignOn } from "@/lib/config";
import { safeReturnPath } from "@/lib/http/return-to";
import { LoginForm } from "./login-form";
import { SsoButton } from "./sso-button";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

// next-auth sends a single sign-on it could not finish back here with `error` (its own codes).
const SSO_ERRORS: Record<string, string> = {
  OAuthSignin: "The sign-in page of your organisation could not be reached. Try again in a moment.",
  OAuthCallback: "Your organisation's sign-in did not finish (it was cancelled, took too long, or its answer did not check out). Try again.",
  Callback: "Your organisation's sign-in did not finish. Try again.",
  AccessDenied: "You may not sign in to the console.",
};

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string | string[]; error?: string | string[] }> }) {
  const params = await searchParams;
  const callbackUrl = safeReturnPath(params.callbackUrl);
  if (await currentUser()) redirect(callbackUrl);
  const sso = singleSignOn();
  const passwords = config().PASSWORD_SIGN_IN;
  const ssoError = sso && typeof params.error === "string" ? (SSO_ERRORS[params.error] ?? null) : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <h1 className="text-center text-2xl font-semibold tracking-tight">Sign in to the console</h1>
        <p className="mt-2 text-center text-sm text-slate-600">Branches, subscribers and exports.</p>
        <div className="mt-8 space-y-5 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          {ssoError ? (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              {ssoError}
            </p>
          ) : null}
          {sso ? <SsoButton name={sso.name} providerId={SSO_PROVIDER_ID} callbackUrl={callbackUrl} primary={!passwords} /> : null}
          {sso && passwords ? (
            <p className="flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500" aria-hidden="true">
              <span className="h-px flex-1 bg-slate-200" />
              or with a password
              <span className="h-px flex-1 bg-slate-200" />
            </p>
          ) : null}
          {passwords ? <LoginForm callbackUrl={callbackUrl} /> : null}
        </div>
      </div>
    </main>
  );
}
