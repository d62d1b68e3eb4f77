/**
 * A centred message for error, 403 and 404 pages, so they look intended; `action` goes under it.
 * No next/link here: app/error.tsx, loaded with every page, would bring its own copy of it
 * (docs/decisions/0034-page-javascript.md). PageState adds the link onwards.
 */
export function PageMessage({
  code,
  title,
  children,
  action,
  landmark = true,
}: {
  code?: string;
  title: string;
  children?: React.ReactNode;
  action?: React.ReactNode;
  /** false inside the console's layout, whose <main> it already is: a page has one. */
  landmark?: boolean;
}) {
  const Frame = landmark ? "main" : "div";
  return (
    <Frame className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center px-6 py-16 text-center">
      {code ? <p className="text-sm font-semibold tracking-wide text-brand-600">{code}</p> : null}
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      {children ? <div className="mt-3 text-slate-600">{children}</div> : null}
      {action}
    </Frame>
  );
}
