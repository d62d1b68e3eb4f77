import Link from "next/link";
import { PageMessage } from "./page-message";
import { buttonClass } from "./ui/button-styles";

/** A centred message for 401, 403 and 404 pages, with a link onwards (to the subscribers unless told). */
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
    <PageMessage
      code={code}
      title={title}
      action={
        action ? (
          <Link href={action.href} className={`${buttonClass.primary} mt-8`}>
            {action.label}
          </Link>
        ) : null
      }
    >
      {children}
    </PageMessage>
  );
}
