import "server-only";
import { transaction } from "@/lib/db/transaction";

/** Moves the session version, so a copy of an old cookie is useless too. */
export async function endSessions(userId: number): Promise<void> {
  await transaction(async (tx) => {
    const user = await tx.user.update({
      where: { id: userId },
      data: { session_version: { increment: 1 } },
      select: { id: true, email: true },
    });
    await tx.audit({ action: "auth.sign_out", actor: user });
  });
}
