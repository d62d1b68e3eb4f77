import Link from "next/link";

/** A link back up, its arrow pointing back in either direction of writing. */
export function BackLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <Link href={href} className="text-sm text-brand-700 hover:underline">
      <span aria-hidden="true" className="inline-block rtl:rotate-180">
        ←
      </span>{" "}
      {children}
    </Link>
  );
}
