import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button-styles";
import { LINK_MESSAGES, linkState } from "@/lib/users/links";
import { SetPasswordForm } from "./set-password-form";

export const metadata: Metadata = { title: "Set your password", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

/** A one-time set-password link: the form while it is valid, else why it is not. */
export default async function SetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await linkState(token);
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <h1 className="text-center text-2xl font-semibold tracking-tight">Set your password</h1>
        <div className="mt-8 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          {link.state === "valid" ? (
            <>
              <p className="mb-4 text-sm text-slate-600">
                For <bdi className="font-medium text-slate-900">{link.user.email}</bdi>. You will sign in with this email and the password you choose.
              </p>
              <SetPasswordForm token={token} userInputs={[link.user.name, link.user.email]} />
            </>
          ) : (
            <div className="space-y-4">
              <p role="alert" className="text-sm text-slate-700">
                {LINK_MESSAGES[link.state]}
              </p>
              <Link href="/login" className={buttonClass.secondary}>
                Go to sign-in
              </Link>
            </div>
          )}
        </div>
      </div>
    </main>
  );
}
