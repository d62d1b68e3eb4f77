// The console's one date format, "2 Jan 2027", and with the time, in the zone given: "22 Nov 2026,
// 09:14" (or with seconds, "…09:14:05"). Pure and light, so client components use it too (with the
// console's zone from the server, CONSOLE_TIME_ZONE); server code calls formatDateTime in lib/format.ts.

const formats = new Map<string, Intl.DateTimeFormat>();

export function formatDateTimeIn(value: Date, timeZone: string, { seconds = false } = {}): string {
  const key = `${timeZone}${seconds ? ":s" : ""}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: seconds ? "medium" : "short", timeZone });
    formats.set(key, f);
  }
  return f.format(value);
}

const day = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

/** A calendar day (a DATE read as UTC midnight, or its `YYYY-MM-DD`) as "2 Jan 2027"; any other text stays as it is. */
export function formatDay(value: Date | string): string {
  if (typeof value !== "string") return day.format(value);
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : null;
  return date && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) ? day.format(date) : value;
}
