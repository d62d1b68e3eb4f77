import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/client-messages";
import { ListTable, PlainHeader } from "@/components/list/list-table";
import { Badge, EmptyValue } from "@/components/ui/badge";
import { requirePageUser } from "@/lib/auth/page-guards";
import { twoFactorState } from "@/lib/auth/two-factor";
import { buttonClass } from "@/components/ui/button-styles";
import { getFormats } from "@/lib/i18n/server";
import { listTokens, tokenState } from "@/lib/tokens/tokens";
import { LanguageForm } from "./language-form";
import { PasswordChangeForm } from "./password-change-form";
import { RevokeTokenButton } from "./revoke-token-button";
import { TokenForm } from "./token-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("account"))("title") };
}

const TONE = { active: "green", revoked: "red", expired: "slate" } as const;

export default async function AccountPage() {
  const user = await requirePageUser("/account");
  const [tokens, twoFactor, t, f] = await Promise.all([listTokens(user.id), twoFactorState(user), getTranslations("account"), getFormats()]);
  const cell = "whitespace-nowrap px-3 py-2.5 text-slate-600";
  const code = (chunks: React.ReactNode) => <code className="rounded bg-slate-100 px-1" dir="ltr">{chunks}</code>;
  return (
    <ClientMessages namespaces={["account", "problems.users", "problems.auth", "problems.tokens", "passwordStrength"]}>
      <div className="mx-auto max-w-4xl space-y-8">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
          <p className="mt-1 text-sm break-words text-slate-600">
            <bdi>{user.name}</bdi> · <bdi>{user.email}</bdi> · {t(`role.${user.role}`)}
          </p>
        </div>

        <section aria-labelledby="password-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="password-heading" className="text-lg font-semibold">{t("password.heading")}</h2>
          <p className="mt-1 text-sm text-slate-600">{t("password.intro")}</p>
          <div className="mt-4 max-w-md">
            <PasswordChangeForm userInputs={[user.name, user.email]} />
          </div>
        </section>

        <section aria-labelledby="language-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="language-heading" className="text-lg font-semibold">{t("language.heading")}</h2>
          <p className="mt-1 text-sm text-slate-600">{t("language.intro")}</p>
          <div className="mt-4 max-w-md">
            <LanguageForm locale={user.locale ?? null} />
          </div>
        </section>

        <section aria-labelledby="two-factor-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="two-factor-heading" className="text-lg font-semibold">{t("twoFactor.heading")}</h2>
          <p className="mt-1 text-sm text-slate-600">{twoFactor.state === "on" ? t("twoFactor.on") : t("twoFactor.off")}</p>
          <Link href="/account/two-factor" className={`${buttonClass.secondary} mt-4`}>
            {twoFactor.state === "on" ? t("twoFactor.manage") : t("twoFactor.setUp")}
          </Link>
        </section>

        <section aria-labelledby="tokens-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="tokens-heading" className="text-lg font-semibold">{t("tokens.heading")}</h2>
          <p className="mt-1 text-sm text-slate-600">
            {t.rich("tokens.intro", { header: "Authorization: Bearer <token>", path: "/api/v1", code, b: (chunks) => <strong>{chunks}</strong> })}
          </p>
          <div className="mt-4">
            <TokenForm />
          </div>
          {tokens.length === 0 ? (
            <p className="mt-6 text-sm text-slate-600">{t("tokens.none")}</p>
          ) : (
            <div className="mt-6">
              <ListTable
                caption={t("tokens.caption")}
                header={
                  <>
                    <PlainHeader label={t("tokens.name")} />
                    <PlainHeader label={t("tokens.scope")} />
                    <PlainHeader label={t("tokens.created")} />
                    <PlainHeader label={t("tokens.expires")} />
                    <PlainHeader label={t("tokens.lastUsed")} />
                    <PlainHeader label={t("tokens.state")} />
                    <PlainHeader label={t("tokens.actions")} className="text-end" />
                  </>
                }
              >
                {tokens.map((token) => {
                  const state = tokenState(token);
                  return (
                    <tr key={token.id}>
                      <td className="px-3 py-2.5 font-medium text-slate-900">
                        <bdi>{token.name}</bdi>
                      </td>
                      <td className="px-3 py-2.5">{t(`tokens.scopes.${token.scope}`)}</td>
                      <td className={cell}>{f.dateTime(token.created_at)}</td>
                      <td className={cell}>{f.dateTime(token.expires_at)}</td>
                      <td className={cell}>{token.last_used_at ? f.dateTime(token.last_used_at) : <EmptyValue />}</td>
                      <td className="px-3 py-2.5">
                        <Badge tone={TONE[state]}>{t(`tokens.states.${state}`)}</Badge>
                      </td>
                      <td className="px-3 py-1.5 text-end">{state === "active" ? <RevokeTokenButton id={token.id} name={token.name} /> : null}</td>
                    </tr>
                  );
                })}
              </ListTable>
            </div>
          )}
        </section>
      </div>
    </ClientMessages>
  );
}
