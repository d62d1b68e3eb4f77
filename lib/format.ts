import { config } from "@/lib/config";
import { formatDateTimeIn } from "@/lib/date-time-format";

/** "22 Nov 2026, 09:14" (or with seconds, "…09:14:05") in the console's time zone. */
export function formatDateTime(value: Date, { seconds = false } = {}): string {
  return formatDateTimeIn(value, config().CONSOLE_TIME_ZONE, { seconds });
}

/** A calendar date (stored as a DATE, read as UTC midnight) as "3 Mar 2027". */
const day = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

export const formatDay = (value: Date): string => day.format(value);

export const isoDay = (value: Date) => value.toISOString().slice(0, 10);
export const formatCount = (n: number) => n.toLocaleString("en-GB");

/** Names as a short line: the first `shown`, then how many more ("A, B, C and 2 more"). */
export function nameList(names: readonly string[], shown = 3): string {
  const first = names.slice(0, shown).join(", ");
  return names.length > shown ? `${first} and ${formatCount(names.length - shown)} more` : first;
}
