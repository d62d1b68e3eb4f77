import Link from "next/link";
import { Suspense } from "react";
import { buttonClass } from "@/components/ui/button-styles";
import type { BranchScope } from "@/lib/auth/scope";
import { formatCount } from "@/lib/format";
import { duplicateGroupCount } from "@/lib/subscribers/duplicate-count";

/** The subscriber list's way to the duplicates review (`back`: its way back), with the number of groups when it is known. */
export function DuplicatesLink({ scope, back }: { scope: BranchScope; back: string }) {
  const href = `/subscribers/duplicates${back}`;
  return (
    <Suspense fallback={<Link href={href} className={buttonClass.secondary}>Duplicates</Link>}>
      <Counted scope={scope} href={href} />
    </Suspense>
  );
}

async function Counted({ scope, href }: { scope: BranchScope; href: string }) {
  const groups = await duplicateGroupCount(scope).catch(() => null);
  return (
    <Link href={href} className={buttonClass.secondary}>
      {groups === null ? "Duplicates" : `Duplicates · ${formatCount(groups)} ${groups === 1 ? "group" : "groups"}`}
    </Link>
  );
}
