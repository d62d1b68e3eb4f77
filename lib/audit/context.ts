import "server-only";
import { headers } from "next/headers";
import { CLIENT_ADDRESS_HEADER } from "@/lib/server/client-address";

export type RequestInfo = { ip: string | null; userAgent: string | null };

/** The caller's address as server.ts decided it; X-Forwarded-For is never read here. */
const clientIp = (h: Headers): string | null => h.get(CLIENT_ADDRESS_HEADER)?.slice(0, 64) || null;

export const requestInfoFrom = (h: Headers): RequestInfo => ({ ip: clientIp(h), userAgent: h.get("user-agent")?.slice(0, 256) ?? null });

/** Request details for the audit log; outside a request (scripts, tests) they are unknown. */
export async function requestInfo(): Promise<RequestInfo> {
  try {
    return requestInfoFrom(await headers());
  } catch {
    return { ip: null, userAgent: null };
  }
}
