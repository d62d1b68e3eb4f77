import { AppHeader } from "@/components/app-header";
import { branchScope, isScoped } from "@/lib/auth/scope";
import { currentUser } from "@/lib/auth/session";
import { scopeBranchNames } from "@/lib/branches/queries";
import { signOutAction } from "./session-actions";

// Every console page reads the session and the database: never prerendered at build time.
export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  // The pages themselves guard access (requirePageUser): this only decides what the header shows.
  const user = await currentUser();
  const scope = user ? branchScope(user) : null;
  const branches = scope && isScoped(scope) ? await scopeBranchNames(scope) : null;
  return (
    <>
      {user ? <AppHeader user={user} signOut={signOutAction} branches={branches} /> : null}
      <main className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6 lg:px-8">{children}</main>
    </>
  );
}
