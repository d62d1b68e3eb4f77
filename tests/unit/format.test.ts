import { afterEach, describe, expect, it } from "vitest";
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
