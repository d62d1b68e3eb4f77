import { config } from "@/lib/config";

const dateTime = new Map<string, Intl.DateTimeFormat>();

/** "22 Nov 2026, 09:14" in the console's time zone. */
export function formatDateTime(value: Date): string {
  const tz = config.timeZone;
  let f = dateTime.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: tz });
    dateTime.set(tz, f);
  }
  return f.format(value);
}

/** A calendar date (stored as a DATE, read as UTC midnight) as "3 Mar 2027". */
const day = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

export function formatDay(value: Date): string {
  return day.format(value);
}

export const isoDay = (value: Date) => value.toISOString().slice(0, 10);
export const formatCount = (n: number) => n.toLocaleString("en-GB");
