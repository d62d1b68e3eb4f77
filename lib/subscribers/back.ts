import { z } from "zod";
import { withParams, type RawParams } from "@/lib/list/params";

// Where "← Subscribers" leads from a record, its edit page, a bulk change and the duplicates
// review: the list as the user left it, carried in `?back=`. Only the list's own path with a
// query is taken, so the link can never leave the console (no other path, `//host`, scheme or `\`).

export const LIST_PATH = "/subscribers";

export const listBackSchema = z
  .string()
  .max(2048)
  .regex(/^\/subscribers(\?[\x21-\x7e]*)?$/)
  .refine((v) => !v.includes("//") && !v.includes("\\"));

/** The list address `value` names when it is one, else the bare list. */
export function listBack(value: unknown): string {
  const parsed = listBackSchema.safeParse(value);
  return parsed.success ? parsed.data : LIST_PATH;
}

/** The list's own address from its query (filters, sort, page, columns, view). */
export const listAddress = (params: RawParams) => `${LIST_PATH}${withParams(params, {})}`;

/** `?back=…` for a page opened from the list at `address`; nothing for the bare list. */
export const backQuery = (address: string) => (address === LIST_PATH ? "" : `?back=${encodeURIComponent(address)}`);
