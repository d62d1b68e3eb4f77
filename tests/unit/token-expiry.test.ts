import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { problem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { MAX_TOKEN_DAYS, tokenCreateSchema } from "@/lib/tokens/schema";

// A token lasts at most a year (docs/API.md "API tokens"). An ISO 8601 instant may be at most
// exactly 365 days from now; a `YYYY-MM-DD` date (what /account's date field sends) may be at
// most 365 days after today's date in UTC, and the token then lasts to the end of that day (UTC).
// The clock is fixed so that the boundaries are exact.

const DAY = 86_400_000;
const NOW = Date.parse("2026-03-01T12:00:00.000Z");

const parse = (expires_at: string) => tokenCreateSchema.safeParse({ name: "script", scope: "read", expires_at });
const accepted = (expires_at: string) => {
  const result = parse(expires_at);
  expect(result.success, `${expires_at}: ${result.error?.message}`).toBe(true);
  return result.data!.expires_at;
};
const refusal = (expires_at: string) => {
  const result = parse(expires_at);
  expect(result.success, expires_at).toBe(false);
  return result.error!.issues.map((i) => i.message);
};
const iso = (ms: number) => new Date(ms).toISOString();
// The refusals are problem keys, put into words where the form shows them (docs/decisions/0048-languages.md).
const TOO_FAR = problem("tokens.expiryTooFar", { days: 365 });
const PAST = problem("tokens.expiryPast");
const FORMAT = problem("tokens.expiryFormat");

describe("a token's expiry", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it("takes an instant up to exactly 365 days from now, not a millisecond more", () => {
    expect(MAX_TOKEN_DAYS).toBe(365);
    expect(accepted(iso(NOW + 365 * DAY)).getTime()).toBe(NOW + 365 * DAY);
    expect(refusal(iso(NOW + 365 * DAY + 1))).toEqual([TOO_FAR]);
    expect(refusal(iso(NOW + 365 * DAY + 60_000))).toEqual([TOO_FAR]);
    expect(refusal(iso(NOW + 366 * DAY))).toEqual([TOO_FAR]);
    // The same instant written with an offset is the same instant.
    expect(accepted("2027-03-01T13:00:00+01:00").getTime()).toBe(NOW + 365 * DAY);
    expect(refusal("2027-03-01T13:00:01+01:00")).toEqual([TOO_FAR]);
  });

  it("takes a date up to 365 days after today (UTC), lasting to the end of that day", () => {
    // 2026-03-01 + 365 days = 2027-03-01: the form's latest day.
    expect(accepted("2027-03-01").toISOString()).toBe("2027-03-01T23:59:59.999Z");
    expect(refusal("2027-03-02")).toEqual([TOO_FAR]);
    // Today is a date too: the token works to the end of today.
    expect(accepted("2026-03-01").toISOString()).toBe("2026-03-01T23:59:59.999Z");
    expect(refusal("2026-02-28")).toEqual([PAST]);
  });

  it("decides a date by today's date in UTC, at either end of the day", () => {
    vi.setSystemTime(Date.parse("2026-03-01T00:00:00.000Z"));
    expect(accepted("2027-03-01").toISOString()).toBe("2027-03-01T23:59:59.999Z");
    expect(parse("2027-03-02").success).toBe(false);
    vi.setSystemTime(Date.parse("2026-03-01T23:59:59.999Z"));
    expect(accepted("2027-03-01").toISOString()).toBe("2027-03-01T23:59:59.999Z");
    expect(parse("2027-03-02").success).toBe(false);
    vi.setSystemTime(Date.parse("2026-03-02T00:00:00.000Z"));
    expect(accepted("2027-03-02").toISOString()).toBe("2027-03-02T23:59:59.999Z");
    // Across a leap day: 2028-02-29 exists, 365 days after 2027-03-01 is 2028-02-29.
    vi.setSystemTime(Date.parse("2027-03-01T08:00:00.000Z"));
    expect(accepted("2028-02-29").toISOString()).toBe("2028-02-29T23:59:59.999Z");
    expect(parse("2028-03-01").success).toBe(false);
  });

  it("refuses what is neither form, and instants in the past", () => {
    for (const bad of ["2027-02-30", "27-03-01", "2027-03-01T12:00", "2027-03-01 12:00:00Z", "tomorrow", ""]) {
      expect(refusal(bad), bad).toEqual([FORMAT]);
    }
    expect(refusal(iso(NOW))).toEqual([PAST]);
    expect(accepted(iso(NOW + 1)).getTime()).toBe(NOW + 1);
  });

  it("says its refusals in the reader's language", () => {
    const [en, fr, ar] = [problemsIn("en"), problemsIn("fr"), problemsIn("ar")];
    expect([TOO_FAR, PAST, FORMAT].map(en)).toEqual(["A token lasts at most a year (365 days).", "The expiry must be in the future.", "Give an expiry date as YYYY-MM-DD (or an ISO 8601 time)."]);
    expect(fr(TOO_FAR)).toBe("Un jeton dure au plus un an (365 jours).");
    expect(ar(TOO_FAR)).toBe("يدوم الرمز سنة على الأكثر (365 يومًا).");
    expect(fr(PAST)).not.toBe(PAST);
    expect(ar(FORMAT)).not.toBe(FORMAT);
  });
});
