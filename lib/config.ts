// Settings read from the environment, validated once (see the README's configuration table).

const checked = new Set<string>();

function timeZone(): string {
  const zone = process.env.CONSOLE_TIME_ZONE?.trim() || "UTC";
  if (checked.has(zone)) return zone; // building a formatter per read showed up in the benchmark
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
  } catch {
    throw new Error(`CONSOLE_TIME_ZONE "${zone}" is not a time zone (e.g. Europe/London).`);
  }
  checked.add(zone);
  return zone;
}

export const config = {
  /** Date filters cover whole days in this zone, and dates are shown in it. */
  get timeZone() {
    return timeZone();
  },
};
