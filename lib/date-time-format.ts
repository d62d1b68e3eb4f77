// The console's date and time format, with the zone given: "22 Nov 2026, 09:14" (or with seconds,
// "…09:14:05"). Pure and light, so client components use it too (with the console's zone from
// the server, CONSOLE_TIME_ZONE); server code calls formatDateTime in lib/format.ts.

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
