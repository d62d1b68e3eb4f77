import "server-only";
import { audit } from "@/lib/audit/log";
import { prisma } from "@/lib/db/client";

/** Moves the session version, so a copy of an old cookie is useless too. */
export async function endSessions(userId: number): Promise<void> {
  const db = await prisma();
  await db.$transaction(async (tx) => {
    const user = await tx.user.update({
      where: { id: userId },
      data: { session_version: { increment: 1 } },
      select: { id: true, email: true },
    });
    await audit(tx, { action: "auth.sign_out", actor: user });
  });
}
