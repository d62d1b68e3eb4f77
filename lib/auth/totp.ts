import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { secretHash } from "./secrets";

// RFC 6238 codes (30 s, 6 digits, SHA-1: what every authenticator app reads) and recovery codes
// (docs/decisions/0030-sign-in-two-factor-and-sso.md).

const ISSUER = "Console";
const PERIOD = 30;
export const RECOVERY_CODE_COUNT = 10;

const totp = (secret: string, label = "") => new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

/** A new secret of 160 bits, base32 (RFC 4226's recommended length). */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

/** The otpauth:// address an authenticator app reads from the QR code. */
export const totpUri = (secret: string, email: string) => totp(secret, email).toString();

/** The time step of `code` if it is valid now (one step of clock difference either way), else null. */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  const delta = totp(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
}

/** The current code (tests, and nothing else, need to make one). */
export const currentTotp = (secret: string, now = Date.now()) => totp(secret).generate({ timestamp: now });

export const isTotpShape = (code: string) => /^\d{6}$/.test(code);

/** Ten letters and digits in two groups (50 bits), e.g. `k3x9p-a7mq2`. */
export function newRecoveryCodes(): string[] {
  const alphabet = "abcdefghjkmnpqrstuvwxyz023456789"; // 32 symbols: no bias from the modulo
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** How a recovery code is stored and looked up: the hash of its letters, whatever the case, spaces or hyphens typed. */
export const recoveryCodeHash = (code: string) => secretHash(code.toLowerCase().replace(/[^a-z0-9]/g, ""));
