"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { PageMessage } from "./page-message";
import { buttonClass } from "./ui/button-styles";

// A client component, though it only draws: Next renders every layout's not-found, forbidden and
// unauthorized boundary on every request, and a client part costs the server a reference instead
// of translating and drawing them each time (docs/decisions/0050-precompiled-messages.md).

/** A centred message for 401, 403 and 404 pages, with a link onwards (to the subscribers unless told). */
export function PageState({
  code,
  title,
  children,
  action,
  landmark,
}: {
  code?: string;
  title: string;
  children?: React.ReactNode;
  /** Unless told: to the subscribers; null: none. */
  action?: { href: string; label: string } | null;
  landmark?: boolean;
}) {
  const t = useTranslations("errors");
  const onwards = action === undefined ? { href: "/subscribers", label: t("goToSubscribers") } : action;
  return (
    <PageMessage
      landmark={landmark}
      code={code}
      title={title}
      action={
        onwards ? (
          <Link href={onwards.href} className={`${buttonClass.primary} mt-8`}>
            {onwards.label}
          </Link>
        ) : null
      }
    >
      {children}
    </PageMessage>
  );
}

// The 404, 403 and 401 messages, at the root (their own <main>) and in the console's layout (inside its <main>).
export function NotFoundState({ landmark }: { landmark?: boolean }) {
  const t = useTranslations("errors");
  return (
    <PageState code="404" title={t("notFoundTitle")} landmark={landmark}>
      {t("notFoundText")}
    </PageState>
  );
}

export function ForbiddenState({ landmark }: { landmark?: boolean }) {
  const t = useTranslations("errors");
  return (
    <PageState code="403" title={t("forbiddenTitle")} landmark={landmark}>
      {t("forbiddenText")}
    </PageState>
  );
}

export function UnauthorizedState() {
  const t = useTranslations("errors");
  return (
    <PageState code="401" title={t("unauthorizedTitle")} action={{ href: "/login", label: t("signIn") }}>
      {t("unauthorizedText")}
    </PageState>
  );
}
