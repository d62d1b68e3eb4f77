"use client";

import { unstable_isUnrecognizedActionError } from "next/navigation";

/**
 * Calls a server action from the browser; null when it could not be reached (the connection).
 * A page loaded from the build before an upgrade calls an action the new build no longer knows:
 * the page reloads onto the new build instead of blaming the connection, and the call never
 * settles, as the page goes (docs/decisions/0044-expand-and-contract.md).
 */
export async function callAction<R>(run: () => Promise<R>): Promise<R | null> {
  try {
    return await run();
  } catch (error) {
    if (!unstable_isUnrecognizedActionError(error)) return null;
    window.location.reload();
    return new Promise<never>(() => {});
  }
}
