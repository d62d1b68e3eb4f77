import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { requirePageForTwoFactorSetUp } from "@/lib/auth/page-guards";
import { recentSignIn, twoFactorState } from "@/lib/auth/two-factor";
import { SSO_PROVIDER_ID } from "@/lib/auth/sso-claims";
import { singleSignOn } from "@/lib/config";
import { getFormats } from "@/lib/i18n/server";
import { NewRecoveryCodesForm, StartTwoFactorForm, TurnOffTwoFactorForm, TwoFactorPanel } from "./two-factor-forms";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("twoFactor"))("title") };
}

export default async function TwoFactorPage({ searchParams }: { searchParams: Promise<{ required?: string | string[] }> }) {
  // The one page a user who still has to set up codes may see (lib/auth/guards.ts).
  const principal = await requirePageForTwoFactorSetUp("/account/two-factor");
  const required = (await searchParams).required === "1";
  const [state, t, f] = await Promise.all([twoFactorState(principal.user), getTranslations("twoFactor"), getFormats()]);
  // A single sign-on session has no password to type: a recent sign-in at the provider confirms it.
  const sso = principal.via === "sso" ? { name: singleSignOn()?.name ?? t("ssoFallback"), providerId: SSO_PROVIDER_ID, recent: recentSignIn(principal) } : null;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div>
        <p className="text-sm">
          <Link href="/account" className="text-brand-700 underline">
            {t("back")}
          </Link>
        </p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">
          {t("intro")}
        </p>
      </div>
      {required && state.state !== "on" ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {t("required")}
        </p>
      ) : null}
      <section aria-labelledby="state-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <ClientMessages namespaces={["twoFactor", "problems.users", "problems.signIn"]}>
        <TwoFactorPanel>
        {state.state === "off" ? (
          <>
            <h2 id="state-heading" className="text-lg font-semibold">{t("off")}</h2>
            <p className="mt-1 text-sm text-slate-600">
              {state.started ? `${t("offBody")} ${t("startedNotConfirmed")}` : t("offBody")}
            </p>
            <div className="mt-4 max-w-xs">
              <StartTwoFactorForm sso={sso} />
            </div>
          </>
        ) : (
          <>
            <h2 id="state-heading" className="text-lg font-semibold">{t("on")}</h2>
            <p className="mt-1 text-sm text-slate-600">
              {t("since", { since: f.dateTime(state.since) })} {t("codesLeft", { left: state.recoveryCodesLeft, total: 10 })}
            </p>
            <h3 className="mt-6 font-medium">{t("recoveryHeading")}</h3>
            <p className="mt-1 text-sm text-slate-600">{t("recoveryBody")}</p>
            <div className="mt-3 max-w-xs">
              <NewRecoveryCodesForm sso={sso} />
            </div>
            <h3 className="mt-6 font-medium">{t("turnOffHeading")}</h3>
            <p className="mt-1 text-sm text-slate-600">{t("turnOffBody")}</p>
            <div className="mt-3 max-w-xs">
              <TurnOffTwoFactorForm sso={sso} />
            </div>
          </>
        )}
        </TwoFactorPanel>
        </ClientMessages>
      </section>
    </div>
  );
}
