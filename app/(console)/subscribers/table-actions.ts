"use server";

import { revalidatePath } from "next/cache";
import { forbidden, unauthorized } from "next/navigation";
import { AuthError, requireUser } from "@/lib/auth/guards";
import { prisma } from "@/lib/db/client";
import { settingsFromForm, tableSettings } from "@/lib/subscribers/columns";

/**
 * The column chooser's form (a plain form: it works before the page's script runs): the user's
 * columns and density, kept with the user so every device shows the same table.
 */
export async function saveTableSettingsAction(form: FormData): Promise<void> {
  let user;
  try {
    user = await requireUser();
  } catch (error) {
    if (error instanceof AuthError) (error.status === 401 ? unauthorized : forbidden)();
    throw error;
  }
  const settings = settingsFromForm(form instanceof FormData ? form : new FormData());
  const db = await prisma();
  await db.$transaction(async (tx) => {
    const current = await tx.user.findUnique({ where: { id: user.id }, select: { preferences: true } });
    const preferences = { ...(current?.preferences as Record<string, unknown> | null), subscriberTable: tableSettings({ subscriberTable: settings }) };
    await tx.user.update({ where: { id: user.id }, data: { preferences } });
  });
  revalidatePath("/subscribers");
}
