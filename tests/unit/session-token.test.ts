import { decode, encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { decodeSessionToken } from "@/lib/auth/session-token";

// The session cookie is read with a key derived once per secret (lib/auth/session-token.ts): it
// must read exactly what next-auth writes and reads, and refuse what next-auth refuses.

const secret = "a-test-secret-of-some-length-0123456789";

describe("decodeSessionToken", () => {
  it("reads next-auth's tokens as next-auth's own decode does", async () => {
    const token = await encode({ token: { uid: 7, sv: 3, sat: 1_800_000_000 }, secret });
    const ours = await decodeSessionToken(token, secret);
    expect(ours).toEqual(await decode({ token, secret }));
    expect(ours).toMatchObject({ uid: 7, sv: 3, sat: 1_800_000_000 });
    // The key is kept: a second token of the same secret reads the same way.
    const again = await encode({ token: { uid: 8 }, secret });
    expect((await decodeSessionToken(again, secret)).uid).toBe(8);
  });

  it("refuses a token of another secret, an expired one, and one that is not a token", async () => {
    const token = await encode({ token: { uid: 7 }, secret: "another-secret-entirely-0123456789" });
    await expect(decodeSessionToken(token, secret)).rejects.toThrow();
    const expired = await encode({ token: { uid: 7 }, secret, maxAge: -60 });
    await expect(decodeSessionToken(expired, secret)).rejects.toThrow();
    await expect(decodeSessionToken("not.a.token.at.all", secret)).rejects.toThrow();
    const tampered = `${token.slice(0, -4)}AAAA`;
    await expect(decodeSessionToken(tampered, secret)).rejects.toThrow();
  });
});
