/** How many records a confirmation names before "and N more". */
export const NAMED = 10;

type ListFormat = (items: string[], options?: { style?: "long" | "short" | "narrow" }) => string;

/**
 * The records a confirmation names, as a list in the reader's language (Intl.ListFormat: Arabic joins
 * with و, French "A, B et C"); past NAMED the narrow list, without its own "and", before "and N more".
 */
export function namedRecords(quoted: string[], list: ListFormat, andMore: (names: string, count: number) => string): string {
  const names = quoted.slice(0, NAMED);
  return quoted.length > NAMED ? andMore(list(names, { style: "narrow" }), quoted.length - NAMED) : list(names);
}
