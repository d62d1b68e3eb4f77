import type { Metadata } from "next";
import Link from "next/link";
import { ListTable, PlainHeader } from "@/components/list/list-table";
import { Badge, EmptyValue } from "@/components/ui/badge";
import { requirePageUser } from "@/lib/auth/page-guards";
import { twoFactorState } from "@/lib/auth/two-factor";
import { buttonClass } from "@/components/ui/button-styles";
import { formatDateTime } from "@/lib/format";
import { listTokens, tokenState } from "@/lib/tokens/tokens";
import { PasswordChangeForm } from "./password-change-form";
import { RevokeTokenButton } from "./revoke-token-button";
import { TokenForm } from "./token-form";

export const metadata: Metadata = { title: "Your account" };

const STATE = { active: { tone: "green", label: "Active" }, revoked: { tone: "red", label: "Revoked" }, expired: { tone: "slate", label: "Expired" } } as const;

export default async function AccountPage() {
  const user = await requirePageUser("/account");
  const [tokens, twoFactor] = await Promise.all([listTokens(user.id), twoFactorState(user)]);
  const cell = "whitespace-nowrap px-3 py-2.5 text-slate-600";
  return (
    <div className="mx-auto max-w-4xl space-y-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Your account</h1>
        <p className="mt-1 text-sm text-slate-600">
          <bdi>{user.name}</bdi> · <bdi>{user.email}</bdi> · {user.role === "admin" ? "Administrator" : "Staff"}
        </p>
      </div>

      <section aria-labelledby="password-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="password-heading" className="text-lg font-semibold">Change your password</h2>
        <p className="mt-1 text-sm text-slate-600">Changing it signs you out on every other device.</p>
        <div className="mt-4 max-w-md">
          <PasswordChangeForm userInputs={[user.name, user.email]} />
        </div>
      </section>

      <section aria-labelledby="two-factor-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="two-factor-heading" className="text-lg font-semibold">Two-factor sign-in</h2>
        <p className="mt-1 text-sm text-slate-600">
          {twoFactor.state === "on"
            ? "On: signing in with your password also asks for a code from your authenticator app."
            : "Off: signing in with your password asks for nothing else."}
        </p>
        <Link href="/account/two-factor" className={`${buttonClass.secondary} mt-4`}>
          {twoFactor.state === "on" ? "Manage two-factor" : "Set up two-factor"}
        </Link>
      </section>

      <section aria-labelledby="tokens-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="tokens-heading" className="text-lg font-semibold">API tokens</h2>
        <p className="mt-1 text-sm text-slate-600">
          For scripts: send <code className="rounded bg-slate-100 px-1">Authorization: Bearer &lt;token&gt;</code> to <code className="rounded bg-slate-100 px-1">/api/v1</code>.
          A token acts as you, never with more than your role: <strong>read</strong> lists and records, <strong>export</strong> also requests and downloads the subscriber export.
        </p>
        <div className="mt-4">
          <TokenForm />
        </div>
        {tokens.length === 0 ? (
          <p className="mt-6 text-sm text-slate-600">You have no tokens yet.</p>
        ) : (
          <div className="mt-6">
            <ListTable
              caption="Your API tokens"
              header={
                <>
                  {["Name", "Scope", "Created", "Expires", "Last used", "State"].map((h) => <PlainHeader key={h} label={h} />)}
                  <PlainHeader label="Actions" className="text-end" />
                </>
              }
            >
              {tokens.map((t) => {
                const state = STATE[tokenState(t)];
                return (
                  <tr key={t.id}>
                    <td className="px-3 py-2.5 font-medium text-slate-900">
                      <bdi>{t.name}</bdi>
                    </td>
                    <td className="px-3 py-2.5">{t.scope}</td>
                    <td className={cell}>{formatDateTime(t.created_at)}</td>
                    <td className={cell}>{formatDateTime(t.expires_at)}</td>
                    <td className={cell}>{t.last_used_at ? formatDateTime(t.last_used_at) : <EmptyValue />}</td>
                    <td className="px-3 py-2.5">
                      <Badge tone={state.tone}>{state.label}</Badge>
                    </td>
                    <td className="px-3 py-1.5 text-end">{tokenState(t) === "active" ? <RevokeTokenButton id={t.id} name={t.name} /> : null}</td>
                  </tr>
                );
              })}
            </ListTable>
          </div>
        )}
      </section>
    </div>
  );
}
