import type { Metadata } from "next";
import Link from "next/link";
import { getProblemWords } from "@/lib/i18n/server";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { buttonClass } from "@/components/ui/button-styles";
import { LINK_MESSAGES, linkState } from "@/lib/users/links";
import { SetPasswordForm } from "./set-password-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("setPassword"))("title"), referrer: "no-referrer" };
}
export const dynamic = "force-dynamic";

/** A one-time set-password link: the form while it is valid, else why it is not. */
export default async function SetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await linkState(token);
  const t = await getTranslations("setPassword");
  // The link's state in words (a problem key of lib/users, or its words).
  const words = (await getProblemWords());
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <h1 className="text-center text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <div className="mt-8 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          {link.state === "valid" ? (
            <>
              <p className="mb-4 text-sm text-slate-600">
                {t.rich("forEmail", { email: link.user.email, bdi: (chunks) => <bdi className="font-medium text-slate-900">{chunks}</bdi> })}
              </p>
              <ClientMessages namespaces={["setPassword", "problems.auth", "problems.users", "passwordStrength"]}>
                <SetPasswordForm token={token} userInputs={[link.user.name, link.user.email]} />
              </ClientMessages>
            </>
          ) : (
            <div className="space-y-4">
              <p role="alert" className="text-sm text-slate-700">
                {words(LINK_MESSAGES[link.state])}
              </p>
              <Link href="/login" className={buttonClass.secondary}>
                {t("goToSignIn")}
              </Link>
            </div>
          )}
        </div>
      </div>
    </main>
  );
}
