"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { useTranslations } from "next-intl";
import { notify } from "@/components/toast";
import { buttonClass } from "@/components/ui/button-styles";
import { inputClass } from "@/components/ui/input-styles";
import { FormAlert } from "@/components/ui/form-alert";
import { callAction } from "@/components/ui/call-action";
import { direction, LOCALES, LOCALE_NAMES, type Locale } from "@/lib/i18n/locales";
import { setLocaleAction } from "./actions";

/** The console's language for this user: their browser's (nothing stored), or one chosen; the next page is in it. */
export function LanguageForm({ locale }: { locale: Locale | null }) {
  const t = useTranslations("account");
  const ui = useTranslations("ui");
  const router = useRouter();
  const id = useId();
  const [value, setValue] = useState<Locale | "">(locale ?? "");
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();

  const save = (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    start(async () => {
      const result = await callAction(() => setLocaleAction({ locale: value === "" ? null : value }));
      if (!result) return setError(t("language.offline"));
      if (!result.ok) return setError(result.formError ?? t("language.failed"));
      if (result.message) notify("success", result.message);
      // The layout reads the language with the session: rendered again, the page is in the new one.
      router.refresh();
    });
  };

  return (
    <form onSubmit={save} noValidate className="flex flex-wrap items-end gap-3">
      <div className="min-w-48 grow">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          {ui("language")}
        </label>
        <select id={id} className={`${inputClass} mt-1`} value={value} onChange={(e) => setValue(e.target.value as Locale | "")}>
          <option value="">{t("language.followBrowser")}</option>
          {LOCALES.map((l) => (
            <option key={l} value={l} lang={l} dir={direction(l)}>
              {LOCALE_NAMES[l]}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className={buttonClass.primary} disabled={pending || value === (locale ?? "")}>
        {pending ? t("language.saving") : t("language.save")}
      </button>
      <div className="basis-full empty:hidden">
        <FormAlert message={error} />
      </div>
    </form>
  );
}
