"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions";
import { z } from "zod";
import { requireAdmin, requireUser } from "@/lib/auth/guards";
import { erasePerson } from "@/lib/people/erase";
import { deleteSubscriber, updateSubscriber } from "@/lib/subscribers/edit";
import { checkDuplicates, createSubscriber } from "@/lib/subscribers/mutations";
import { serializeRecord } from "@/lib/subscribers/record";
import { duplicateCheckSchema, subscriberEditSchema, subscriberInputSchema } from "@/lib/subscribers/schema";
import { idSchema } from "@/lib/validation/id";

// Guarded here even though the page is too (actions can be called directly); is_duplicate is never
// read from the input: the server decides it.

export const createSubscriberAction = action(requireUser, subscriberInputSchema, async (input, user) => {
  const row = await createSubscriber(user.scope, input, user);
  revalidatePath("/subscribers");
  const name = `${row.first_name} ${row.last_name}`;
  return {
    ok: true,
    data: { id: row.id, is_duplicate: row.is_duplicate },
    message: row.is_duplicate ? `Subscriber “${name}” created, marked as a duplicate.` : `Subscriber “${name}” created.`,
  };
});

/** The form asks this when the email or mobile field loses focus, before submitting. */
export const checkDuplicateAction = action(requireUser, duplicateCheckSchema, async (input, user) => {
  return { ok: true, data: await checkDuplicates(user.scope, input) };
});

/** Saves an edit made on `version` (the record's updated_at as read); a stale one fails with the record as it is now. */
export const updateSubscriberAction = action(requireUser, subscriberEditSchema, async ({ id, version, ...input }, user) => {
  const row = await updateSubscriber(user.scope, id, input, new Date(version), user);
  revalidatePath("/subscribers");
  revalidatePath(`/subscribers/${id}`);
  return { ok: true, data: serializeRecord(row), message: `Subscriber “${row.first_name} ${row.last_name}” saved.${row.is_duplicate ? " It is marked as a duplicate." : ""}` };
});

export const deleteSubscriberAction = action(requireAdmin, z.object({ id: idSchema("The subscriber id must be a whole number of 1 or more.") }), async ({ id }, user) => {
  const row = await deleteSubscriber(user.scope, id, user);
  revalidatePath("/subscribers");
  return { ok: true, data: undefined, message: `Subscriber “${row.first_name} ${row.last_name}” deleted. It is in the trash.` };
});

/** Erases the person of this record everywhere (administrators): not undoable, the confirmation said so. */
export const erasePersonAction = action(requireAdmin, z.object({ id: idSchema("The subscriber id must be a whole number of 1 or more.") }), async ({ id }, user) => {
  const counts = await erasePerson(user.scope, { subscriber_id: id }, user);
  revalidatePath("/subscribers");
  const records = `${counts.erased_subscribers} record${counts.erased_subscribers === 1 ? "" : "s"}`;
  const files = counts.exports_withdrawn ? `, ${counts.exports_withdrawn} export file${counts.exports_withdrawn === 1 ? "" : "s"} withdrawn` : "";
  return { ok: true, data: counts, message: `Person erased: ${records}${files}.` };
});
