import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { buttonClass } from "@/components/ui/button-styles";
import type { BranchScope } from "@/lib/auth/scope";
import { duplicateGroupCount } from "@/lib/subscribers/duplicate-count";

/** The subscriber list's way to the duplicates review (`back`: its way back), with the number of groups when it is known. */
export async function DuplicatesLink({ scope, back }: { scope: BranchScope; back: string }) {
  const href = `/subscribers/duplicates${back}`;
  const t = await getTranslations("subscribers");
  return (
    <Suspense fallback={<Link href={href} className={buttonClass.secondary}>{t("duplicates")}</Link>}>
      <Counted scope={scope} href={href} />
    </Suspense>
  );
}

async function Counted({ scope, href }: { scope: BranchScope; href: string }) {
  const [groups, t] = await Promise.all([duplicateGroupCount(scope).catch(() => null), getTranslations("subscribers")]);
  return (
    <Link href={href} className={buttonClass.secondary}>
      {groups === null ? t("duplicates") : t("duplicateGroups", { count: groups })}
    </Link>
  );
}
