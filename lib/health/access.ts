import "server-only";
import crypto from "node:crypto";
import type { Principal } from "@/lib/auth/principal";
import { currentPrincipal } from "@/lib/auth/guards";
import { config } from "@/lib/config";
import type { SessionUser } from "@/lib/auth/permissions";

// Who sees the health details: an administrator, or a monitor with HEALTH_TOKEN, which works
// while the database is down and no session can be checked.

const canReadHealthDetails = (user: Pick<SessionUser, "role"> | null | undefined) => user?.role === "admin";

/** An administrator who still has to set up two-factor sees no more than anyone (lib/auth/principal.ts). */
const detailsFor = (principal: Principal | null) => principal !== null && principal.twoFactor !== "pending" && canReadHealthDetails(principal.user);

const digest = (value: string) => crypto.createHash("sha256").update(value, "utf8").digest();

/** True when the request carries the operator's HEALTH_TOKEN (compared in constant time). */
function hasHealthToken(request: Request): boolean {
  const expected = config().HEALTH_TOKEN;
  if (!expected) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  // Hashes have one length whatever was sent, so the comparison takes the same time too.
  return match !== null && crypto.timingSafeEqual(digest(match[1]!), digest(expected));
}

/** Whether this request may see the details; never throws (a down database means "no" here). */
export async function mayReadHealthDetails(request: Request): Promise<boolean> {
  if (hasHealthToken(request)) return true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const giveUp = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), SESSION_TIMEOUT_MS)));
  try {
    return detailsFor(await Promise.race([currentPrincipal(), giveUp]));
  } catch {
    return false; // the session cannot be checked (the database is down): the status only
  } finally {
    clearTimeout(timer);
  }
}

/** A session that cannot be read this fast (a hanging database) counts as none. */
const SESSION_TIMEOUT_MS = 3_000;
