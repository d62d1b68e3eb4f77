"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions";
import { problem } from "@/lib/i18n/problem";
import { requireUser } from "@/lib/auth/guards";
import { createView, deleteView, setDefaultView, updateView } from "@/lib/views/mutations";
import { VIEW_LISTS } from "@/lib/views/resources";
import { viewCreateSchema, viewIdSchema, viewPatchSchema, viewResourceSchema } from "@/lib/views/schema";

// The Views menu's and the views page's forms. Each action checks the user itself; who may change
// which view is decided in lib/views/mutations.ts, the same for the API.

const changed = (resource: keyof typeof VIEW_LISTS) => {
  revalidatePath(VIEW_LISTS[resource].path);
  revalidatePath("/views");
};

export const saveViewAction = action(requireUser, viewCreateSchema, async (input, user) => {
  const view = await createView(user, input);
  changed(input.resource);
  return { ok: true, data: { id: view.id }, message: problem("views.saved", { name: view.name }) };
});

export const updateViewAction = action(requireUser, viewPatchSchema.extend({ id: viewIdSchema }), async ({ id, ...patch }, user) => {
  const view = await updateView(user, id, patch);
  changed(view.resource as keyof typeof VIEW_LISTS);
  return { ok: true, data: { id: view.id }, message: problem("views.saved", { name: view.name }) };
});

export const deleteViewAction = action(requireUser, z.object({ id: viewIdSchema }), async ({ id }, user) => {
  const { name } = await deleteView(user, id);
  revalidatePath("/subscribers");
  revalidatePath("/branches");
  revalidatePath("/views");
  return { ok: true, data: undefined, message: problem("views.deleted", { name }) };
});

/** `id: null`: the list opens as a whole again. */
export const setDefaultViewAction = action(
  requireUser,
  z.object({ resource: viewResourceSchema, id: viewIdSchema.nullable() }),
  async ({ resource, id }, user) => {
    await setDefaultView(user, resource, id);
    changed(resource);
    return { ok: true, data: undefined, message: id === null ? problem("views.defaultCleared") : problem("views.defaultSet") };
  },
);
