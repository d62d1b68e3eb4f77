// What names a person in stored values: their emails and mobiles (strong: a value holding one is
// theirs) and their names (weak: only a value that is exactly one, or a filter spelling one out, is
// theirs, so another "Ann" elsewhere keeps her name). Pure, so the rules are tested on their own.

export type Markers = { strong: string[]; weak: string[] };

export const ERASED = "[erased]";

/** The name an erasure gives a saved view that mentioned the person: its own id keeps it unique, and pages recognise it (lib/people/erased-words.ts). */
export const erasedViewName = (id: number | string) => `Erased view ${id}`;

const lower = (s: string) => s.trim().toLowerCase();

/** The markers of these values (emails, mobiles, first and last names), lower-cased, blanks left out. */
export function markersOf(values: { emails: Iterable<string>; mobiles: Iterable<string>; names: Iterable<string> }): Markers {
  const strong = new Set<string>();
  for (const v of [...values.emails, ...values.mobiles]) if (lower(v)) strong.add(lower(v));
  for (const m of values.mobiles) if (/^\+\d{6,}$/.test(m.trim())) strong.add(m.trim().slice(1)); // "+44…" also as "44…" (a filter's digits)
  const weak = new Set<string>();
  for (const v of values.names) if (lower(v)) weak.add(lower(v));
  return { strong: [...strong], weak: [...weak].filter((w) => !strong.has(w)) };
}

function decoded(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

/** A query string's or filter's values, as a list reads them. */
function queryValues(s: string): string[] {
  if (!s.includes("=")) return [];
  return [...new URLSearchParams(s).values()];
}

/** Whether a stored text names the person: it holds an email or mobile, is a name, or is a query spelling one out. */
export function names(text: string, m: Markers): boolean {
  const forms = [lower(text), lower(decoded(text))];
  if (forms.some((f) => m.strong.some((s) => f.includes(s)))) return true;
  if (forms.some((f) => m.weak.includes(f))) return true;
  return queryValues(text).some((v) => names(v, m));
}

/** Whether free text someone typed (a view's name) mentions the person: one of their emails or mobiles, or a name as a word. */
export function mentions(text: string, m: Markers): boolean {
  if (names(text, m)) return true;
  const t = lower(text);
  return m.weak.some((w) => new RegExp(`(^|[^\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}\\p{N}])`, "u").test(t));
}

/** A filter value (an export's, a view's, a bulk change's) that spells out part of the person: contained in one of their values. */
export function spellsOut(value: string, m: Markers): boolean {
  const v = lower(value);
  if (names(value, m)) return true;
  return v.length >= 4 && [...m.strong, ...m.weak].some((s) => s.includes(v));
}

/**
 * The JSON value with every string that names the person replaced by `[erased]` (object keys are
 * field names, kept); `filters`: also values that spell out part of them. Returns the same value
 * when nothing changed, so callers write only what changed.
 */
export function scrub<T>(value: T, m: Markers, filters = false): T {
  const test = filters ? (s: string) => spellsOut(s, m) : (s: string) => names(s, m);
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return test(v) ? ERASED : v;
    if (Array.isArray(v)) {
      const out = v.map(walk);
      return out.some((x, i) => x !== v[i]) ? out : v;
    }
    if (v !== null && typeof v === "object" && !(v instanceof Date)) {
      const entries = Object.entries(v as Record<string, unknown>);
      const out = entries.map(([k, x]) => [k, walk(x)] as const);
      return out.some(([, x], i) => x !== entries[i]![1]) ? Object.fromEntries(out) : v;
    }
    return v;
  };
  return walk(value) as T;
}

/** A query string with each value that spells out part of the person replaced (the view keeps its other filters). */
export function scrubQuery(query: string, m: Markers): string {
  const params = new URLSearchParams(query);
  let changed = false;
  for (const [k, v] of [...params.entries()]) {
    if (spellsOut(v, m)) {
      params.set(k, ERASED);
      changed = true;
    }
  }
  return changed ? params.toString() : query;
}

/** Whether a spreadsheet cell is one of the person's values: an email, a mobile in any national or international spelling, or a name. */
export function cellNames(cell: string, m: Markers, mobiles: readonly string[]): boolean {
  if (names(cell, m)) return true;
  const digits = cell.replace(/\D/g, "").replace(/^0+/, "");
  return digits.length >= 6 && /^[\d\s().+\-/]+$/.test(cell.trim()) && mobiles.some((e164) => e164.replace(/\D/g, "").endsWith(digits));
}

/** Members of a stored value that hold a list's filters (an export's, a bulk change's, a view's query). */
const FILTER_KEYS = ["filters", "target", "query"];

/** An audit event's or a job's values scrubbed: its filters as filters (a partial value spelling them out goes), the rest value by value. */
export function scrubEvent<T>(value: T, m: Markers): T {
  let out = scrub(value, m);
  if (out === null || typeof out !== "object" || Array.isArray(out)) return out;
  for (const key of FILTER_KEYS) {
    const inner = (out as Record<string, unknown>)[key];
    if (inner === undefined) continue;
    const cleaned = typeof inner === "string" ? scrubQuery(inner, m) : scrub(inner, m, true);
    if (cleaned !== inner) out = { ...(out as Record<string, unknown>), [key]: cleaned } as T;
  }
  return out;
}

/** A saved view's event: its name is the owner's own words, so it goes when it mentions the person, as the view's own name does. */
export function scrubViewEvent<T>(value: T, m: Markers): T {
  const out = scrubEvent(value, m);
  if (out === null || typeof out !== "object" || Array.isArray(out)) return out;
  let result = out as Record<string, unknown>;
  for (const key of ["name", "view"]) {
    const v = result[key];
    if (typeof v === "string" && mentions(v, m)) result = { ...result, [key]: ERASED };
  }
  return result as T;
}

/** An audit event's values scrubbed as its action holds them. */
export const scrubAuditEvent = <T>(action: string, value: T, m: Markers): T => (action.startsWith("view.") ? scrubViewEvent(value, m) : scrubEvent(value, m));

/** Whether an audit event's or a job's values name the person (what the scrubbing would change). */
export const eventNames = (value: unknown, m: Markers, action = ""): boolean => scrubAuditEvent(action, value, m) !== value;

/** Audit actions whose values carry a list's filters: a filter may spell part of the person out without a whole value of theirs. */
export const FILTER_ACTIONS = ["export.request", "subscriber.bulk_change", "token.export", "view.create", "view.update", "view.delete"];

/** Patterns for a first, coarse SQL pass (`ILIKE ANY`) over JSON or text columns; the exact test is `names` or `spellsOut`. */
export function likePatterns(m: Markers): string[] {
  const escape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
  const all = [...m.strong, ...m.weak];
  return [...new Set(all.flatMap((s) => [`%${escape(s)}%`, `%${escape(encodeURIComponent(s))}%`]))];
}
