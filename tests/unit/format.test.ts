import { afterEach, describe, expect, it } from "vitest";
import { formatDateTimeIn } from "@/lib/date-time-format";
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
