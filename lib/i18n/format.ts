import { INTL_TAG, type Locale } from "./locales";

// Dates, times, counts and relative times in the reader's language and the console's zone
// (CONSOLE_TIME_ZONE). Pure, so server code (lib/i18n/server.ts) and client components
// (lib/i18n/client.ts) format alike. Intl objects are costly to make: one per language, zone and kind.

const cached = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();
function memo<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>(key: string, make: () => T): T {
  let f = cached.get(key) as T | undefined;
  if (!f) cached.set(key, (f = make()));
  return f;
}

const DAY = { day: "numeric", month: "short", year: "numeric" } as const;
const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
];

export type Formats = ReturnType<typeof formatsFor>;

export function formatsFor(locale: Locale, timeZone: string) {
  const tag = INTL_TAG[locale];
  const dateTimeFormat = (seconds: boolean) =>
    memo(`dt:${tag}:${timeZone}:${seconds}`, () => new Intl.DateTimeFormat(tag, { ...DAY, hour: "2-digit", minute: "2-digit", ...(seconds ? { second: "2-digit" } : {}), hourCycle: "h23", timeZone }));
  const dayFormat = memo(`d:${tag}`, () => new Intl.DateTimeFormat(tag, { ...DAY, timeZone: "UTC" }));
  const number = memo(`n:${tag}`, () => new Intl.NumberFormat(tag));
  const relative = memo(`r:${tag}`, () => new Intl.RelativeTimeFormat(tag, { numeric: "auto" }));
  return {
    locale,
    /** "2 Jan 2027, 09:14" (with seconds "…09:14:05"), in the console's zone. */
    dateTime: (value: Date, { seconds = false } = {}) => dateTimeFormat(seconds).format(value),
    /** A calendar day (a DATE read as UTC midnight, or its `YYYY-MM-DD`): "2 Jan 2027"; any other text stays as it is. */
    day(value: Date | string): string {
      if (typeof value !== "string") return dayFormat.format(value);
      const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : null;
      return date && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) ? dayFormat.format(date) : value;
    },
    /** Two calendar days as one range: "2 – 5 Jan 2027". */
    dayRange: (from: Date, to: Date) => dayFormat.formatRange(from, to),
    /** A count with the language's separators: "1,234" / "1 234". */
    count: (n: number) => number.format(n),
    /** "2 minutes ago", "in 3 hours", "yesterday": the largest whole unit between `value` and `now`. */
    relative(value: Date, now: Date = new Date()): string {
      const seconds = Math.round((value.getTime() - now.getTime()) / 1000);
      const [unit, size] = RELATIVE_UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? ["second", 1];
      return relative.format(Math.trunc(seconds / size), unit);
    },
  };
}
