// Settings read from the environment, validated once (see the README's configuration table).

function timeZone(): string {
  const zone = process.env.CONSOLE_TIME_ZONE?.trim() || "UTC";
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
  } catch {
    throw new Error(`CONSOLE_TIME_ZONE "${zone}" is not a time zone (e.g. Europe/London).`);
  }
  return zone;
}

export const config = {
  /** Date filters cover whole days in this zone, and dates are shown in it. */
  get timeZone() {
    return timeZone();
  },
};
