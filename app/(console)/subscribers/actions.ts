"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/actions";
import { z } from "zod";
import { requireAdmin, requireUser } from "@/lib/auth/guards";
import { problem } from "@/lib/i18n/problem";
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
    message: problem(row.is_duplicate ? "subscribers.createdDuplicate" : "subscribers.created", { name }),
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
  const name = `${row.first_name} ${row.last_name}`;
  return { ok: true, data: serializeRecord(row), message: problem(row.is_duplicate ? "subscribers.savedDuplicate" : "subscribers.saved", { name }) };
});

export const deleteSubscriberAction = action(requireAdmin, z.object({ id: idSchema(problem("subscribers.idInvalid")) }), async ({ id }, user) => {
  const row = await deleteSubscriber(user.scope, id, user);
  revalidatePath("/subscribers");
  return { ok: true, data: undefined, message: problem("subscribers.deleted", { name: `${row.first_name} ${row.last_name}` }) };
});

/** Erases the person of this record everywhere (administrators): not undoable, the confirmation said so. */
export const erasePersonAction = action(requireAdmin, z.object({ id: idSchema(problem("subscribers.idInvalid")) }), async ({ id }, user) => {
  const counts = await erasePerson(user.scope, { subscriber_id: id }, user);
  revalidatePath("/subscribers");
  return { ok: true, data: counts, message: problem("people.erased", { records: counts.erased_subscribers, files: counts.exports_withdrawn }) };
});
