import Link from "next/link";
import { PageMessage } from "./page-message";
import { buttonClass } from "./ui/button-styles";

/** A centred message for 401, 403 and 404 pages, with a link onwards (to the subscribers unless told). */
export function PageState({
  code,
  title,
  children,
  action = { href: "/subscribers", label: "Go to subscribers" },
  landmark,
}: {
  code?: string;
  title: string;
  children?: React.ReactNode;
  action?: { href: string; label: string } | null;
  landmark?: boolean;
}) {
  return (
    <PageMessage
      landmark={landmark}
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

// The 404 and 403 messages, at the root (their own <main>) and in the console's layout (inside its <main>).
export const NotFoundState = ({ landmark }: { landmark?: boolean }) => (
  <PageState code="404" title="Page not found" landmark={landmark}>
    The page or record you asked for does not exist, or it was deleted.
  </PageState>
);

export const ForbiddenState = ({ landmark }: { landmark?: boolean }) => (
  <PageState code="403" title="Not allowed" landmark={landmark}>
    Your role does not allow this. Ask an administrator if you need access.
  </PageState>
);
