// What pages show goes through lib/i18n/format.ts, in the reader's language; these are for
// machine-readable values and the API's English messages.

export const isoDay = (value: Date) => value.toISOString().slice(0, 10);
export const formatCount = (n: number) => n.toLocaleString("en-GB");
