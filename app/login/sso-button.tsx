"use client";

import { signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { buttonClass } from "@/components/ui/button-styles";

/** next-auth's own start of the single sign-on: it sends the browser to the identity provider with state, nonce and a PKCE challenge. */
export function SsoButton({ name, providerId, callbackUrl, primary }: { name: string; providerId: string; callbackUrl: string; primary: boolean }) {
  const [leaving, setLeaving] = useState(false);
  const t = useTranslations("login");
  return (
    <button
      type="button"
      className={`${primary ? buttonClass.primary : buttonClass.secondary} w-full`}
      disabled={leaving}
      onClick={() => {
        setLeaving(true);
        void signIn(providerId, { callbackUrl }).catch(() => setLeaving(false));
      }}
    >
      {leaving ? t("ssoLeaving") : t("ssoButton", { name })}
    </button>
  );
}
