import { createHash, randomBytes } from "node:crypto";

// Secrets handed out once and kept as a hash: random bytes, so a plain SHA-256 is enough (unlike a password).

const TOKEN_PREFIX = "bsc_";
const TOKEN = /^bsc_[A-Za-z0-9_-]{43}$/;
const LINK = /^[A-Za-z0-9_-]{43}$/;

/** A new API token: recognisable by its prefix (so a leaked one can be found in logs and code). */
export const newApiToken = (): string => `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;

/** A new set-password link's secret, for its path. */
export const newLinkSecret = (): string => randomBytes(32).toString("base64url");

export const isApiTokenShape = (value: string) => TOKEN.test(value);
export const isLinkSecretShape = (value: string) => LINK.test(value);

/** What is stored: the SHA-256 of the secret, in hex. */
export const secretHash = (secret: string): string => createHash("sha256").update(secret, "utf8").digest("hex");
