import { decodeSessionCookie, sessionCookieName } from "@/lib/auth/cookies";
import { TooManyRequestsError, userLimit } from "./user-limit";

// A user's excess heavy pages are refused before they render, as a refusal after rendering costs a
// whole page (docs/decisions/0024-previews-are-heavy-and-refused-early.md). No Node APIs: the proxy imports it.

/** The pages whose work counts among their user's heavy requests: subscriber and audit lists, bulk confirmation, imports. */
const HEAVY_PAGES = /^\/(audit|subscribers(\/bulk|\/import(\/[^/]+)?)?)$/;

/** The refusal of this page request, when its user has no room left for it; else null. */
export async function refusedBeforeRendering(pathname: string, cookies: { get(name: string): { value: string } | undefined }): Promise<TooManyRequestsError | null> {
  const limit = userLimit();
  if (!HEAVY_PAGES.test(pathname) || !limit.anyFull()) return null;
  const uid = (await decodeSessionCookie(cookies.get(sessionCookieName())?.value))?.uid;
  const userId = typeof uid === "number" ? uid : null;
  return userId !== null && limit.full(userId) ? new TooManyRequestsError(limit.options.running) : null;
}
