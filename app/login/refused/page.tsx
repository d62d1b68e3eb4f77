import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { buttonClass } from "@/components/ui/button-styles";
import { SSO_REFUSALS, type SsoRefusal } from "@/lib/auth/sso-claims";
import { singleSignOn } from "@/lib/config";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("login"))("refused.title") };
}
export const dynamic = "force-dynamic";

// Where a refused single sign-on lands (lib/auth/options.ts): the reason, already audited, in words.
const reasonParam = z.enum(SSO_REFUSALS).catch("no_group");

// Each reason's title and text: `login.refused.<key>`.
const EXPLAINED = {
  no_group: "noGroup",
  unverified_email: "unverifiedEmail",
  no_email: "noEmail",
  subject_mismatch: "subjectMismatch",
  deactivated: "deactivated",
} as const satisfies Record<SsoRefusal, string>;

export default async function RefusedPage({ searchParams }: { searchParams: Promise<{ reason?: string | string[] }> }) {
  const reason = reasonParam.parse((await searchParams).reason);
  const key = EXPLAINED[reason];
  const sso = singleSignOn();
  const t = await getTranslations("login");
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-md">
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <p className="text-sm font-medium text-red-700">{sso ? t("refused.by", { name: sso.name }) : t("refused.title")}</p>
          <h1 className="mt-2 text-xl font-semibold tracking-tight">{t(`refused.${key}.title`)}</h1>
          <p className="mt-3 text-sm text-slate-700">{t(`refused.${key}.text`)}</p>
          <Link href="/login" className={`${buttonClass.secondary} mt-6 inline-flex`}>
            {t("refused.back")}
          </Link>
        </div>
      </div>
    </main>
  );
}
