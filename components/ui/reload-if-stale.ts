"use client";

import { unstable_isUnrecognizedActionError } from "next/navigation";

/**
 * A page loaded from the build before an upgrade calls a server action the new build no longer
 * knows: Next throws, and the page reloads onto the new build instead of blaming the connection
 * (docs/decisions/0044-expand-and-contract.md). True when it reloads.
 */
export function reloadIfStale(error: unknown): boolean {
  if (!unstable_isUnrecognizedActionError(error)) return false;
  window.location.reload();
  return true;
}
