import "server-only";
import { scopeCondition, subscribersOf, type BranchScope } from "@/lib/auth/scope";
import { query, sql, type Queryable } from "@/lib/db/sql";
import { emailKey } from "@/lib/subscribers/schema";
import type { PersonKey } from "./key";
import { markersOf, type Markers } from "./markers";

export { personKeySchema, type PersonKey } from "./key";

// A person, as the console knows them: every subscriber record sharing their email or mobile, among
// the subscribers (through the reader's scoped source, decision 0037) and in the trash (deleted or
// merged away), and the values their history held. Matching is direct, not transitive: a record
// sharing only a mobile with one of theirs and an email with a stranger's is not followed further.

export type PersonRecord = {
  id: number;
  state: "live" | "trash" | "merged";
  first_name: string;
  last_name: string;
  email: string;
  mobile: string;
  branch_id: number | null;
  country_id: number | null;
  sheet_id: number | null;
  travel_date: string | null;
  subscription_status: string;
  is_mandatory: boolean;
  created_at: Date;
  updated_at: Date | null;
  deleted_at: Date | null;
  merged_into: number | null;
};

export type Person = {
  emails: string[];
  mobiles: string[];
  records: PersonRecord[];
  ids: number[];
  markers: Markers;
};

const COLUMNS = sql`id, first_name, last_name, email, mobile, branch_id, country_id, sheet_id, travel_date::text AS travel_date,
  subscription_status::text AS subscription_status, is_mandatory, created_at, updated_at`;

/** The keys a person is found by: the given email or mobile, or those of the given record (live or in the trash, in the scope). */
async function keysOf(scope: BranchScope, key: PersonKey, db: Queryable): Promise<{ emails: string[]; mobiles: string[] }> {
  const emails = key.email ? [emailKey(key.email)] : [];
  const mobiles = key.mobile ? [key.mobile] : [];
  if (key.subscriber_id !== undefined) {
    const inTrash = scopeCondition(scope, sql`t.branch_id`) ?? sql`true`;
    const rows = await db.query<{ email: string; mobile: string }>(sql`
      SELECT s.email, s.mobile FROM ${subscribersOf(scope)} s WHERE s.id = ${key.subscriber_id}
      UNION ALL SELECT t.email, t.mobile FROM subscriber_trash t WHERE t.id = ${key.subscriber_id} AND ${inTrash}`);
    for (const r of rows) {
      emails.push(emailKey(r.email));
      mobiles.push(r.mobile);
    }
  }
  return { emails: [...new Set(emails)], mobiles: [...new Set(mobiles)] };
}

/** Emails, mobiles and names the history of these records held (values before an edit or a merge are theirs too). */
async function pastValues(db: Queryable, ids: readonly number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<{ v: string }>(sql`SELECT DISTINCT x.v FROM audit_events a,
      LATERAL (SELECT a.before->>f AS v FROM unnest(ARRAY['first_name','last_name','email','mobile']) f
               UNION ALL SELECT a.after->>f FROM unnest(ARRAY['first_name','last_name','email','mobile']) f) x
     WHERE a.entity = 'subscriber' AND a.entity_id = ANY(${ids.map(String)}::text[]) AND x.v IS NOT NULL`);
  return rows.map((r) => r.v);
}

const isMobile = (v: string) => /^\+\d{6,}$/.test(v);

/** The records sharing one of these emails or mobiles: live ones through the scope's source, then the trash's. */
async function recordsSharing(scope: BranchScope, emails: string[], mobiles: string[], db: Queryable, lock: boolean): Promise<PersonRecord[]> {
  const forUpdate = lock ? sql`ORDER BY id FOR UPDATE` : sql``;
  const inTrash = scopeCondition(scope, sql`branch_id`) ?? sql`true`;
  const live = await db.query<PersonRecord>(sql`SELECT ${COLUMNS}, 'live' AS state, NULL::timestamptz AS deleted_at, NULL::int AS merged_into
    FROM ${subscribersOf(scope)} s WHERE lower(s.email) = ANY(${emails}::text[]) OR s.mobile = ANY(${mobiles}::text[]) ${forUpdate}`);
  const trashed = await db.query<PersonRecord>(sql`SELECT ${COLUMNS}, CASE WHEN merged_into IS NULL THEN 'trash' ELSE 'merged' END AS state, deleted_at, merged_into
    FROM subscriber_trash WHERE (lower(email) = ANY(${emails}::text[]) OR mobile = ANY(${mobiles}::text[])) AND ${inTrash} ${forUpdate}`);
  return [...live, ...trashed].sort((a, b) => a.id - b.id);
}

/**
 * Every record of the person and the values their history holds; `lock`: the rows locked for an
 * erasure. The person's emails and mobiles are the key's, and those the key's records have or had
 * (a merge may have given one a duplicate's mobile); the records sharing one of them are theirs.
 */
export async function findPerson(scope: BranchScope, key: PersonKey, db: Queryable = { query }, lock = false): Promise<Person> {
  const keys = await keysOf(scope, key, db);
  if (keys.emails.length === 0 && keys.mobiles.length === 0) return { emails: [], mobiles: [], records: [], ids: [], markers: markersOf({ emails: [], mobiles: [], names: [] }) };
  const first = await recordsSharing(scope, keys.emails, keys.mobiles, db, false);
  const firstPast = await pastValues(db, first.map((r) => r.id));
  const emails = [...new Set([...keys.emails, ...first.map((r) => emailKey(r.email)), ...firstPast.filter((v) => v.includes("@")).map(emailKey)])];
  const mobiles = [...new Set([...keys.mobiles, ...first.map((r) => r.mobile), ...firstPast.filter(isMobile)])];
  const records = await recordsSharing(scope, emails, mobiles, db, lock);
  const ids = records.map((r) => r.id);
  const past = await pastValues(db, ids);
  const allEmails = [...emails, ...records.map((r) => emailKey(r.email)), ...past.filter((v) => v.includes("@"))];
  const allMobiles = [...new Set([...mobiles, ...records.map((r) => r.mobile), ...past.filter(isMobile)])];
  const allNames = [...records.flatMap((r) => [r.first_name, r.last_name]), ...past.filter((v) => !v.includes("@") && !isMobile(v))];
  return {
    emails,
    mobiles: allMobiles,
    records,
    ids,
    markers: markersOf({ emails: new Set(allEmails), mobiles: allMobiles, names: new Set(allNames) }),
  };
}

export type PersonCounts = { live: number; trash: number; merged: number; total: number };

/** How many records an erasure of this record's person takes, by where they are: what its confirmation names. */
export async function personCounts(scope: BranchScope, subscriberId: number): Promise<PersonCounts> {
  const { records } = await findPerson(scope, { subscriber_id: subscriberId });
  const count = (state: PersonRecord["state"]) => records.filter((r) => r.state === state).length;
  return { live: count("live"), trash: count("trash"), merged: count("merged"), total: records.length };
}
