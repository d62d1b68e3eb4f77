import Link from "next/link";
import { Suspense } from "react";
import { buttonClass } from "@/components/ui/button-styles";
import type { BranchScope } from "@/lib/auth/scope";
import { formatCount } from "@/lib/format";
import { duplicateGroupCount } from "@/lib/subscribers/duplicate-count";

/** The subscriber list's way to the duplicates review, with the number of groups when it is known. */
export function DuplicatesLink({ scope }: { scope: BranchScope }) {
  return (
    <Suspense fallback={<Link href="/subscribers/duplicates" className={buttonClass.secondary}>Duplicates</Link>}>
      <Counted scope={scope} />
    </Suspense>
  );
}

async function Counted({ scope }: { scope: BranchScope }) {
  const groups = await duplicateGroupCount(scope).catch(() => null);
  return (
    <Link href="/subscribers/duplicates" className={buttonClass.secondary}>
      {groups === null ? "Duplicates" : `Duplicates · ${formatCount(groups)} ${groups === 1 ? "group" : "groups"}`}
    </Link>
  );
}
