import { afterEach, describe, expect, it } from "vitest";
import { formatDateTimeIn, formatDay } from "@/lib/date-time-format";
import { formatDateTime } from "@/lib/format";

// Times are shown in the console's time zone (CONSOLE_TIME_ZONE), like the date filters read
// them: the lists and the audit log alike.
describe("formatDateTime", () => {
  const previous = process.env.CONSOLE_TIME_ZONE;
  afterEach(() => {
    if (previous === undefined) delete process.env.CONSOLE_TIME_ZONE;
    else process.env.CONSOLE_TIME_ZONE = previous;
  });

  it("shows an instant in the console's time zone, with seconds when asked (the audit log)", () => {
    const at = new Date("2026-01-01T23:30:05Z");
    process.env.CONSOLE_TIME_ZONE = "Asia/Tokyo";
    expect(formatDateTime(at)).toBe("2 Jan 2026, 08:30");
    expect(formatDateTime(at, { seconds: true })).toBe("2 Jan 2026, 08:30:05");
    process.env.CONSOLE_TIME_ZONE = "UTC";
    expect(formatDateTime(at, { seconds: true })).toBe("1 Jan 2026, 23:30:05");
  });
});

describe("formatDateTimeIn (client components, given the console's zone)", () => {
  it("reads as formatDateTime does, in the zone given", () => {
    const at = new Date("2026-01-01T23:30:05Z");
    expect(formatDateTimeIn(at, "Asia/Tokyo")).toBe("2 Jan 2026, 08:30");
    expect(formatDateTimeIn(at, "Europe/London", { seconds: true })).toBe("1 Jan 2026, 23:30:05");
    const previous = process.env.CONSOLE_TIME_ZONE;
    process.env.CONSOLE_TIME_ZONE = "America/New_York";
    try {
      expect(formatDateTime(at, { seconds: true })).toBe(formatDateTimeIn(at, "America/New_York", { seconds: true }));
    } finally {
      if (previous === undefined) delete process.env.CONSOLE_TIME_ZONE;
      else process.env.CONSOLE_TIME_ZONE = previous;
    }
  });
});

// One date format everywhere: the record, the list, the history, the merge, the chips.
describe("formatDay", () => {
  it("shows a calendar day as \"2 Jan 2027\", from a DATE or its YYYY-MM-DD", () => {
    expect(formatDay(new Date("2027-01-02T00:00:00Z"))).toBe("2 Jan 2027");
    expect(formatDay("2027-01-02")).toBe("2 Jan 2027");
    expect(formatDay("2028-02-29")).toBe("29 Feb 2028");
  });

  it("leaves a text that is not a calendar day as it is", () => {
    expect(formatDay("2027-02-30")).toBe("2027-02-30");
    expect(formatDay("02/01/2027")).toBe("02/01/2027");
    expect(formatDay("")).toBe("");
  });
});
