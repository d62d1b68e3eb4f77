import Link from "next/link";
import { buttonClass } from "./ui/button-styles";

/** A centred message for error, 403 and 404 pages, so they look intended. */
export function PageState({
  code,
  title,
  children,
  action = { href: "/subscribers", label: "Go to subscribers" },
}: {
  code?: string;
  title: string;
  children?: React.ReactNode;
  action?: { href: string; label: string } | null;
}) {
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center px-6 py-16 text-center">
      {code ? <p className="text-sm font-semibold tracking-wide text-brand-600">{code}</p> : null}
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      {children ? <div className="mt-3 text-slate-600">{children}</div> : null}
      {action ? (
        <Link href={action.href} className={`${buttonClass.primary} mt-8`}>
          {action.label}
        </Link>
      ) : null}
    </main>
  );
}
