// Before measuring, the benchmark checks that the fast paths answer what the plain SQL answers on
// its million rows: totals read from the kept counts (subscriber_status_counts,
// subscriber_day_counts) against count(*), and
// deep pages found by day (lib/subscribers/queries.ts, daySeek) against a plain OFFSET walk.
import { subscriberFiltersSchema } from "@/lib/subscribers/filters";
import { subscriberListSql } from "@/lib/subscribers/queries";
import { branchScope } from "@/lib/auth/scope";
import { sql } from "@/lib/db/sql";
import { earlierMatches } from "@/lib/subscribers/duplicates";
/** These measure or check everything: an unscoped reader (lib/auth/scope.ts). */
const EVERY_BRANCH = branchScope({ role: "admin", branch_ids: null });

import type { FloorDb } from "./floor";

export async function verifyFastPaths(db: FloorDb): Promise<string> {
  const [{ n: total }] = (await db.query(`SELECT count(*)::int AS n FROM subscribers`)) as [{ n: number }];
  const counted = subscriberListSql(EVERY_BRANCH, subscriberFiltersSchema.parse({})).count;
  const [{ total: fromCounts }] = (await db.query(counted.text, counted.values)) as [{ total: number }];
  if (fromCounts !== total) throw new Error(`Unfiltered total ${fromCounts} from the kept counts, count(*) says ${total}.`);
  const [{ n: days }] = (await db.query(`SELECT coalesce(sum(total), 0)::int AS n FROM subscriber_day_counts`)) as [{ n: number }];
  if (days !== total) throw new Error(`subscriber_day_counts sums to ${days}, count(*) says ${total}.`);
  const statusFilters: Record<string, string>[] = [
    { subscription_status: "active" },
    { is_duplicate: "true" },
    { is_mandatory: "false", subscription_status: "cancelled" },
    { subscription_status: "active", is_duplicate: "false", is_mandatory: "true" },
  ];
  for (const filters of statusFilters) {
    const list = subscriberListSql(EVERY_BRANCH, subscriberFiltersSchema.parse(filters)).count;
    const [{ total: kept }] = (await db.query(list.text, list.values)) as [{ total: number }];
    const where = Object.entries(filters).map(([k], i) => `${k} = $${i + 1}${k === "subscription_status" ? `::"SubscriptionStatus"` : "::boolean"}`);
    const [{ n: counted }] = (await db.query(`SELECT count(*)::int AS n FROM subscribers WHERE ${where.join(" AND ")}`, Object.values(filters))) as [
      { n: number },
    ];
    if (kept !== counted) throw new Error(`${new URLSearchParams(filters)}: total ${kept} from the kept counts, count(*) says ${counted}.`);
  }

  // Per branch: the kept counts a scoped user's totals are summed from (docs/decisions/0028-branch-scope.md).
  const branchMismatch = (await db.query(`SELECT coalesce(k.branch_id, c.branch_id) AS branch_id FROM
      (SELECT branch_id, sum(total)::int AS n FROM subscriber_branch_counts GROUP BY 1) k
      FULL JOIN (SELECT branch_id, count(*)::int AS n FROM subscribers WHERE branch_id IS NOT NULL GROUP BY 1) c USING (branch_id)
     WHERE coalesce(k.n, 0) <> coalesce(c.n, 0) LIMIT 1`)) as { branch_id: number }[];
  if (branchMismatch.length) throw new Error(`subscriber_branch_counts of branch ${branchMismatch[0]!.branch_id} differs from count(*).`);

  const pages = [101, Math.floor(total / 20), Math.ceil(total / 10 / 2), Math.ceil(total / 10), Math.ceil(total / 10) + 1];
  let checked = 0;
  for (const sort of ["-created_at", "created_at"]) {
    const dir = sort.startsWith("-") ? "DESC" : "ASC";
    for (const page of pages) {
      if (page < 1) continue;
      const sql = subscriberListSql(EVERY_BRANCH, subscriberFiltersSchema.parse({ sort, page: String(page) })).rows;
      const fast = ((await db.query(sql.text, sql.values)) as { id: number }[]).map((r) => r.id);
      const plain = (
        (await db.query(`SELECT id FROM subscribers ORDER BY created_at ${dir}, id ${dir} LIMIT 10 OFFSET $1`, [(page - 1) * 10])) as {
          id: number;
        }[]
      ).map((r) => r.id);
      if (fast.join() !== plain.join()) {
        throw new Error(`sort=${sort}&page=${page}: the list answers [${fast.join(", ")}], a plain OFFSET [${plain.join(", ")}].`);
      }
      checked++;
    }
  }
  // The duplicates review reads its groups from the flags: they must be the rule's (lib/subscribers/duplicates.ts).
  const m = earlierMatches(sql`t`);
  const rule = sql`(${m.email}, ${m.mobile}, ${m.email} OR ${m.mobile})`;
  const [{ wrong, flagged }] = (await db.query(`SELECT count(*) FILTER (WHERE (t.duplicate_by_email, t.duplicate_by_mobile, t.is_duplicate) IS DISTINCT FROM ${rule.text})::int AS wrong,
      count(*) FILTER (WHERE t.is_duplicate)::int AS flagged FROM subscribers t`)) as [{ wrong: number; flagged: number }];
  if (wrong) throw new Error(`${wrong} subscribers' duplicate flags differ from the duplicate rule.`);
  const share = ((flagged / Math.max(total, 1)) * 100).toFixed(1);
  return `totals (unfiltered, ${statusFilters.length} status/flag filters) and ${checked} deep pages agree with count(*) and OFFSET; ${share}% of subscribers are duplicates, each flag the rule's`;
}
