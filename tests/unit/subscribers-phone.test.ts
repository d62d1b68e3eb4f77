import { describe, expect, it } from "vitest";
import { MOBILE_INVALID, MOBILE_NEEDS_COUNTRY, normaliseMobile } from "@/lib/subscribers/phone";

describe("normaliseMobile", () => {
  it.each([
    ["+44 7400 123456", undefined, "+447400123456"],
    ["+44 (0)7400 123456", undefined, "+447400123456"],
    ["0044 7400 123456", undefined, "+447400123456"],
    ["07400 123456", "GB", "+447400123456"],
    ["07400-123-456", "GB", "+447400123456"],
    ["06 12 34 56 78", "FR", "+33612345678"],
    ["(202) 555-0143", "US", "+12025550143"],
    ["+33 6 12 34 56 78", "GB", "+33612345678"], // an international number wins over the country
    ["  +49 1512 3456789 ", null, "+4915123456789"],
  ])("reads %s (country %s) as %s", (input, country, e164) => {
    expect(normaliseMobile(input, country)).toEqual({ ok: true, e164 });
  });

  it("needs a country for a national number", () => {
    expect(normaliseMobile("07400 123456")).toEqual({ ok: false, message: MOBILE_NEEDS_COUNTRY });
    expect(normaliseMobile("07400 123456", "gb")).toEqual({ ok: false, message: MOBILE_NEEDS_COUNTRY });
  });

  it.each([
    ["+44 20 7183 8750", undefined], // a London landline, not a mobile
    ["+44 7700 900123", undefined], // reserved for drama: not a real mobile
    ["+44 74", undefined],
    ["12", "GB"],
    ["+1 000 000 0000", undefined],
    ["call me", "GB"],
    ["+44 7400 123456 ext 5", undefined],
    ["", "GB"],
  ])("rejects %s (country %s)", (input, country) => {
    const result = normaliseMobile(input, country);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(MOBILE_INVALID);
  });

  it("the same number typed differently gives the same E.164 (the duplicate rule compares these)", () => {
    const forms = ["+447400123456", "+44 7400 123 456", "07400123456", "0044 (7400) 123-456"];
    const normalised = new Set(forms.map((f) => {
      const r = normaliseMobile(f, "GB");
      return r.ok ? r.e164 : r.message;
    }));
    expect([...normalised]).toEqual(["+447400123456"]);
  });
});
