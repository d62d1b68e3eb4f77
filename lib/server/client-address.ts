import net from "node:net";

// Who is calling: decided once by server.ts, which alone sees the socket; nothing else reads X-Forwarded-For.

/** The request header that carries the caller's address from server.ts to the app. */
export const CLIENT_ADDRESS_HEADER = "x-console-client-address";

/** `::ffff:192.0.2.1` (an IPv4 peer on a dual-stack socket) is 192.0.2.1. */
function normalise(address: string): string | null {
  const trimmed = address.trim();
  const bare = trimmed.startsWith("[") && trimmed.endsWith("]") ? trimmed.slice(1, -1) : trimmed;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  const ip = mapped ? mapped[1]! : bare;
  return net.isIP(ip) ? ip.toLowerCase() : null;
}

/** The hop `trustedHops` from the right of X-Forwarded-For plus the peer: hops further left were written by the client. */
export function resolveClientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trustedHops: number): string {
  const peer = (socketAddress && normalise(socketAddress)) || "unknown";
  if (trustedHops <= 0 || forwardedFor === undefined) return peer;
  const hops = [forwardedFor].flat().join(",").split(",");
  const chain = [...hops, peer];
  let vouched = peer;
  for (let i = 1; i <= trustedHops; i++) {
    const hop = chain[chain.length - 1 - i];
    const address = hop === undefined ? null : normalise(hop);
    if (!address) break;
    vouched = address;
  }
  return vouched;
}
