// Subscribers for the export's tests and benchmark, inserted set-based (generate_series) so that
// hundreds of thousands of rows take seconds. Some values are hostile on purpose: formulas,
// quotes, commas, line breaks and accents.

type Run = (text: string) => Promise<unknown>;

/** Branches, countries and sheets with ids 1 and 2 (call on an empty database). */
export const LOOKUPS_SQL = `
  INSERT INTO branches (name, updated_at) VALUES ('Northgate', now()), ('=Southport, "Central"', now());
  INSERT INTO countries (code, name) VALUES ('GB', 'United Kingdom'), ('CI', 'Côte d''Ivoire');
  INSERT INTO sheets (name) VALUES ('Spring campaign'), ('@walk-ins');`;

/** `count` subscribers numbered from `from` (1-based); every 7th is mandatory, every 3rd has no branch. */
export function subscribersSql(count: number, from = 1): string {
  return `
  INSERT INTO subscribers (first_name, last_name, email, mobile, branch_id, country_id, sheet_id, travel_date,
    subscription_status, is_duplicate, is_mandatory, created_at)
  SELECT
    CASE WHEN g % 97 = 0 THEN '=HYPERLINK("http://x.test","y")' WHEN g % 89 = 0 THEN 'Zoë "Jo", ' || E'\\n' || 'Ängel'
         WHEN g % 83 = 0 THEN E'\\tTabbed' ELSE 'First' || g END,
    CASE WHEN g % 79 = 0 THEN '-' || g WHEN g % 73 = 0 THEN '+1' ELSE 'Last' || g END,
    'user' || g || '@example.com',
    '+4477' || lpad((g % 100000000)::text, 8, '0'),
    NULLIF(g % 3, 0), CASE WHEN g % 5 = 0 THEN NULL ELSE 1 + g % 2 END,
    CASE WHEN g % 4 = 0 THEN NULL ELSE 1 + g % 2 END,
    CASE WHEN g % 2 = 0 THEN NULL ELSE DATE '2027-01-01' + (g % 365) END,
    (ARRAY['pending','active','expired','cancelled'])[1 + g % 4]::"SubscriptionStatus",
    g % 11 = 0, g % 7 = 0,
    TIMESTAMPTZ '2026-01-01 00:00:00+00' + g * interval '1 second'
  FROM generate_series(${from}, ${from + count - 1}) AS g`;
}

/** Inserts the lookups and `count` subscribers through `run` (one statement at a time). */
export async function seedSubscribers(run: Run, count: number, chunk = 200_000): Promise<void> {
  for (const statement of LOOKUPS_SQL.split(";").map((s) => s.trim()).filter(Boolean)) await run(statement);
  for (let from = 1; from <= count; from += chunk) await run(subscribersSql(Math.min(chunk, count - from + 1), from));
}
