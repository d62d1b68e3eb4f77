"use client";

import { useTranslations } from "next-intl";
import { useFormStatus } from "react-dom";
import { buttonClass } from "./ui/button-styles";

/** The submit button of the header's sign-out form: disabled while the sign-out is under way. */
export function SignOutButton() {
  const { pending } = useFormStatus();
  const t = useTranslations("ui");
  return (
    <button type="submit" className={buttonClass.secondary} disabled={pending}>
      {pending ? t("signingOut") : t("signOut")}
    </button>
  );
}
