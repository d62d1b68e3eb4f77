"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions";
import { requireUser } from "@/lib/auth/guards";
import { checkDuplicates, createSubscriber } from "@/lib/subscribers/mutations";
import { duplicateCheckSchema, subscriberInputSchema } from "@/lib/subscribers/schema";

// Every signed-in user may create subscribers (docs/SPEC.md): the guard is requireUser, checked here
// even though the page checks it too. is_duplicate is never read from the input.

export const createSubscriberAction = action(requireUser, subscriberInputSchema, async (input, user) => {
  const row = await createSubscriber(input, user);
  revalidatePath("/subscribers");
  const name = `${row.first_name} ${row.last_name}`;
  return {
    ok: true,
    data: { id: row.id, is_duplicate: row.is_duplicate },
    message: row.is_duplicate ? `Subscriber “${name}” created, marked as a duplicate.` : `Subscriber “${name}” created.`,
  };
});

/** The form asks this when the email or mobile field loses focus, before submitting. */
export const checkDuplicateAction = action(requireUser, duplicateCheckSchema, async (input) => {
  return { ok: true, data: await checkDuplicates(input) };
});
