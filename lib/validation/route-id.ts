import { notFound, type NotFoundWhat } from "@/lib/errors";
import { parseId } from "./id";

// Not in id.ts: forms load that one in the browser, and this one brings the server's errors.

export type IdContext = { params: Promise<{ id: string }> };

/** A route's `[id]`: any other spelling names no record, a 404 as an unknown id (`what`: "The branch"). */
export async function routeId(context: IdContext, what: NotFoundWhat): Promise<number> {
  const id = parseId((await context.params).id);
  if (id === null) throw notFound(what);
  return id;
}
