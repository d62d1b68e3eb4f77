import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { LOGIN_CLIENT_WORDS } from "@/lib/i18n/client-words";
import { SSO_PROVIDER_ID } from "@/lib/auth/sso-claims";
import { currentUser } from "@/lib/auth/guards";
import { config, singleSignOn } from "@/lib/config";
import { safeReturnPath } from "@/lib/http/return-to";
import { LoginForm } from "./login-form";
import { SsoButton } from "./sso-button";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("login"))("title") };
}
export const dynamic = "force-dynamic";

// next-auth sends a single sign-on it could not finish back here with `error` (its own codes).
const SSO_ERRORS = {
  OAuthSignin: "oauthSignin",
  OAuthCallback: "oauthCallback",
  Callback: "callback",
  AccessDenied: "accessDenied",
} as const;
const ssoErrorOf = (code: string) => (Object.hasOwn(SSO_ERRORS, code) ? SSO_ERRORS[code as keyof typeof SSO_ERRORS] : null);

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string | string[]; error?: string | string[] }> }) {
  const params = await searchParams;
  const callbackUrl = safeReturnPath(params.callbackUrl);
  if (await currentUser()) redirect(callbackUrl);
  const sso = singleSignOn();
  const passwords = config().PASSWORD_SIGN_IN;
  const ssoError = sso && typeof params.error === "string" ? ssoErrorOf(params.error) : null;
  const t = await getTranslations("login");
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <h1 className="text-center text-2xl font-semibold tracking-tight">{t("heading")}</h1>
        <p className="mt-2 text-center text-sm text-slate-600">{t("tagline")}</p>
        <div className="mt-8 space-y-5 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          {ssoError ? (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              {t(`ssoErrors.${ssoError}`)}
            </p>
          ) : null}
          <ClientMessages namespaces={[...LOGIN_CLIENT_WORDS, "problems.signIn"]}>
            {sso ? <SsoButton name={sso.name} providerId={SSO_PROVIDER_ID} callbackUrl={callbackUrl} primary={!passwords} /> : null}
          {sso && passwords ? (
            <p className="flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500" aria-hidden="true">
              <span className="h-px flex-1 bg-slate-200" />
              {t("orWithPassword")}
              <span className="h-px flex-1 bg-slate-200" />
            </p>
          ) : null}
            {passwords ? <LoginForm callbackUrl={callbackUrl} /> : null}
          </ClientMessages>
        </div>
      </div>
    </main>
  );
}
