import { useTranslations } from "next-intl";

// Colour is never the only signal: the text says it too.

// The tones' colours are in app/globals.css (.badge-*): a list page shows dozens of badges.
export type BadgeTone = "green" | "amber" | "red" | "blue" | "violet" | "slate";

export function Badge({ tone = "slate", children }: { tone?: BadgeTone; children: React.ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/** An empty value: a quiet dash for the eye, "none" for screen readers. */
export function EmptyValue() {
  const t = useTranslations("ui");
  return (
    <>
      <span aria-hidden="true" className="text-slate-400">
        —
      </span>
      <span className="sr-only">{t("none")}</span>
    </>
  );
}
