import "server-only";
import { headers } from "next/headers";

export type RequestInfo = { ip: string | null; userAgent: string | null };

/**
 * The caller's address: the first hop of X-Forwarded-For when TRUST_PROXY=true (behind a
 * reverse proxy that sets it), else the header Next's own server sets from the socket.
 */
export function clientIp(h: Headers): string | null {
  const forwarded = h.get("x-forwarded-for");
  if (!forwarded) return h.get("x-real-ip")?.trim() || null;
  const hops = forwarded.split(",").map((s) => s.trim()).filter(Boolean);
  const ip = process.env.TRUST_PROXY === "true" ? hops[0] : hops.at(-1);
  return ip ? ip.slice(0, 64) : null;
}

export function requestInfoFrom(h: Headers): RequestInfo {
  return { ip: clientIp(h), userAgent: h.get("user-agent")?.slice(0, 256) ?? null };
}

/** Request details for the audit log; outside a request (scripts, tests) they are unknown. */
export async function requestInfo(): Promise<RequestInfo> {
  try {
    return requestInfoFrom(await headers());
  } catch {
    return { ip: null, userAgent: null };
  }
}
