import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { buttonClass } from "@/components/ui/button-styles";
import { SSO_REFUSALS, type SsoRefusal } from "@/lib/auth/sso-claims";
import { singleSignOn } from "@/lib/config";

export const metadata: Metadata = { title: "Sign-in refused" };
export const dynamic = "force-dynamic";

// Where a refused single sign-on lands (lib/auth/options.ts): the reason, already audited, in words.
const reasonParam = z.enum(SSO_REFUSALS).catch("no_group");

const EXPLAINED: Record<SsoRefusal, { title: string; text: string }> = {
  no_group: {
    title: "Your account is not in a group that may use the console",
    text: "Your organisation decides who may sign in through its groups. Ask your administrator to add you to the console's group, then sign in again.",
  },
  unverified_email: {
    title: "Your email address is not verified",
    text: "Your organisation's sign-in did not confirm that the email address of your account is yours. Verify it there (or ask your administrator to), then sign in again.",
  },
  no_email: {
    title: "Your account has no email address",
    text: "The console knows people by their email address, and your organisation's sign-in did not send one. Ask your administrator to add one to your account.",
  },
  subject_mismatch: {
    title: "This console account belongs to another sign-in",
    text: "The console account with your email address is linked to another account of your organisation's sign-in, and only that one may use it. If it should now be yours, ask a console administrator to unlink the account on the Users page, then sign in again.",
  },
  deactivated: {
    title: "Your console account is deactivated",
    text: "An administrator of the console turned your account off. Ask them to reactivate it if you should still have access.",
  },
};

export default async function RefusedPage({ searchParams }: { searchParams: Promise<{ reason?: string | string[] }> }) {
  const reason = reasonParam.parse((await searchParams).reason);
  const { title, text } = EXPLAINED[reason];
  const sso = singleSignOn();
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-md">
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <p className="text-sm font-medium text-red-700">{sso ? `${sso.name}: sign-in refused` : "Sign-in refused"}</p>
          <h1 className="mt-2 text-xl font-semibold tracking-tight">{title}</h1>
          <p className="mt-3 text-sm text-slate-700">{text}</p>
          <Link href="/login" className={`${buttonClass.secondary} mt-6 inline-flex`}>
            Back to sign-in
          </Link>
        </div>
      </div>
    </main>
  );
}
