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
    <Frame className="page-message">
      {code ? <p className="code">{code}</p> : null}
      <h1>{title}</h1>
      {children ? <div className="detail">{children}</div> : null}
      {action}
    </Frame>
  );
}
