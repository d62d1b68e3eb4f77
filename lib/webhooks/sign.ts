import { createHmac } from "node:crypto";

// Standard Webhooks' signature (https://www.standardwebhooks.com): HMAC-SHA256 of "id.timestamp.body"
// keyed with the base64 after `whsec_`, sent as `v1,<base64>`; several space-separated during a rotation.

/** The key a `whsec_…` secret stands for. */
const keyOf = (secret: string) => Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac("sha256", keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** The three headers of one attempt; `secrets`: the current one first, then the previous one while it overlaps. */
export function webhookHeaders(secrets: string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => signature(secret, id, timestamp, body)).join(" "),
  };
}
