import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { problem, readProblem } from "@/lib/i18n/problem";

// Where a webhook may go (docs/decisions/0045-webhooks.md): never the cloud's metadata service, and
// not loopback, private, link-local, multicast or reserved addresses unless WEBHOOK_ALLOW_PRIVATE.
// Checked when an endpoint is saved (checkTarget) and again on every connection (guardedLookup: the
// socket connects to the address that was checked), so a DNS answer changed later cannot reach them.

/** Always refused, even with WEBHOOK_ALLOW_PRIVATE: the instance's credentials live there. */
const METADATA = new BlockList();
METADATA.addAddress("169.254.169.254", "ipv4");
METADATA.addAddress("fd00:ec2::254", "ipv6");

const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) NOT_PUBLIC.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // old site-local
  ["ff00::", 8], // multicast
] as const) NOT_PUBLIC.addSubnet(net, bits, "ipv6");

/** The 16 bytes of an IPv6 address (valid per net.isIP). */
function ipv6Bytes(address: string): number[] {
  let text = address.split("%")[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

/** The IPv4 address inside an IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96) or NAT64 (64:ff9b::/96) IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const b = ipv6Bytes(address);
  const prefix = b.slice(0, 12);
  const zeros = (n: number) => prefix.slice(0, n).every((x) => x === 0);
  const mapped = zeros(10) && prefix[10] === 0xff && prefix[11] === 0xff;
  const compatible = zeros(12) && b.slice(12).some((x) => x !== 0) && !(b[15] === 1 && b.slice(12, 15).every((x) => x === 0));
  const nat64 = prefix[0] === 0 && prefix[1] === 0x64 && prefix[2] === 0xff && prefix[3] === 0x9b && prefix.slice(4).every((x) => x === 0);
  return mapped || compatible || nat64 ? b.slice(12).join(".") : null;
}

/** Why a webhook may not connect to `address` (an IP), as a problem (problems.webhooks.refused.*), or null when it may. */
export function addressRefusal(address: string, allowPrivate = config().WEBHOOK_ALLOW_PRIVATE): string | null {
  const family = isIP(address);
  if (family === 0) return problem("webhooks.refused.notIp", { address });
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return addressRefusal(v4, allowPrivate);
  }
  const type = family === 4 ? "ipv4" : "ipv6";
  if (METADATA.check(address, type)) return problem("webhooks.refused.metadata", { address });
  if (!allowPrivate && NOT_PUBLIC.check(address, type)) return problem("webhooks.refused.notPublic", { address });
  return null;
}

export class TargetRefused extends AppError {
  static readonly brand: string = "console.TargetRefused";
  /** `reason`: a problem of problems.webhooks.refused (lib/i18n/problem.ts), the message and the URL field's. */
  constructor(reason: string) {
    super(400, "webhook_target_refused", reason, { url: [reason] });
  }
}

export type Resolver = (hostname: string, callback: (error: Error | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, callback) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => callback(error, addresses ?? []));

/**
 * A `lookup` for net/http that resolves the name itself and hands the socket only addresses that pass
 * `addressRefusal`: every resolved address is checked, one refused refuses the name.
 */
export function guardedLookup(allowPrivate = config().WEBHOOK_ALLOW_PRIVATE, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error, "", 4);
      const refused = addresses.map((a) => addressRefusal(a.address, allowPrivate)).find((r) => r !== null);
      if (addresses.length === 0 || refused) {
        const metadata = refused !== undefined && readProblem(refused)?.key === "webhooks.refused.metadata";
        const reason = !refused
          ? problem("webhooks.refused.noAddress", { host: hostname })
          : problem(metadata ? "webhooks.refused.resolvesToMetadata" : "webhooks.refused.resolvesToNotPublic", { host: hostname });
        return callback(new TargetRefused(reason), "", 4);
      }
      const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, wanted);
      const first = wanted[0] ?? addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

export type TargetOptions = { allowPrivate?: boolean; allowHttp?: boolean; resolve?: Resolver };

/** The URL parsed, or why it is refused before any lookup (scheme, credentials, an IP literal that is refused). */
export function parseTarget(url: string, { allowPrivate = config().WEBHOOK_ALLOW_PRIVATE, allowHttp = config().WEBHOOK_ALLOW_HTTP }: TargetOptions = {}): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetRefused(problem("webhooks.refused.notUrl"));
  }
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && allowHttp)) {
    throw new TargetRefused(problem(allowHttp ? "webhooks.refused.scheme" : "webhooks.refused.httpsOnly"));
  }
  if (parsed.username || parsed.password) throw new TargetRefused(problem("webhooks.refused.credentials"));
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    const refused = addressRefusal(host, allowPrivate);
    if (refused) throw new TargetRefused(refused);
  }
  return parsed;
}

/**
 * Checks a webhook's URL when it is saved: the scheme (https, or http with WEBHOOK_ALLOW_HTTP) and every
 * address its host resolves to. Throws TargetRefused (400 `webhook_target_refused`); the check is made
 * again at every connection.
 */
export async function checkTarget(url: string, options: TargetOptions = {}): Promise<void> {
  const parsed = parseTarget(url, options);
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return;
  const lookup = guardedLookup(options.allowPrivate ?? config().WEBHOOK_ALLOW_PRIVATE, options.resolve);
  await new Promise<void>((resolve, reject) =>
    lookup(host, { all: true }, (error) => {
      if (!error) return resolve();
      reject(TargetRefused.is(error) ? error : new TargetRefused(problem("webhooks.refused.unresolved", { host, code: (error as NodeJS.ErrnoException).code ?? error.message })));
    }),
  );
}
