import { hkdfSync } from "node:crypto";
import { jwtDecrypt, type JWTPayload } from "jose";

// The session cookie's token, read as next-auth reads it (next-auth/jwt's `decode`: a JWE, `dir`
// with A256GCM, under a key derived from NEXTAUTH_SECRET by HKDF-SHA256, 15 s of clock
// tolerance), with one difference: the key. next-auth derives it again for every token, an HKDF
// sent to libuv's thread pool and awaited, on every request of every signed-in user; it depends
// on the secret alone, so it is derived once per secret here. Only `dir` and A256GCM are accepted.

const INFO = "NextAuth.js Generated Encryption Key"; // next-auth's, with its empty salt

const keys = new Map<string, Uint8Array>();

function encryptionKey(secret: string): Uint8Array {
  let key = keys.get(secret);
  if (!key) {
    key = new Uint8Array(hkdfSync("sha256", secret, "", INFO, 32));
    keys.set(secret, key);
  }
  return key;
}

/** The token's claims, or a rejection when it is not a token of this secret or has expired. */
export async function decodeSessionToken(token: string, secret: string): Promise<JWTPayload> {
  const { payload } = await jwtDecrypt(token, encryptionKey(secret), {
    clockTolerance: 15,
    keyManagementAlgorithms: ["dir"],
    contentEncryptionAlgorithms: ["A256GCM"],
  });
  return payload;
}

/** The user a session cookie names (its `uid`), or null when it is not a token of this secret. */
export async function sessionUserId(token: string, secret: string): Promise<number | null> {
  try {
    const { uid } = await decodeSessionToken(token, secret);
    return typeof uid === "number" ? uid : null;
  } catch {
    return null;
  }
}
