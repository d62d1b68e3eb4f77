import { AppHeader } from "@/components/app-header";
import { currentUser } from "@/lib/auth/guards";
import { signOutAction } from "./session-actions";

// Every console page reads the session and the database: never prerendered at build time.
export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  // The pages themselves guard access (requirePageUser): this only decides what the header shows.
  // A scoped user's branch names come with the session's one read: the header costs no query.
  const user = await currentUser();
  return (
    <>
      {user ? <AppHeader user={user} signOut={signOutAction} branches={user.branch_names ?? null} /> : null}
      <main className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6 lg:px-8">{children}</main>
    </>
  );
}
