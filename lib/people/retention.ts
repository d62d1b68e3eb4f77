import "server-only";
import { EVERY_BRANCH, LIVE_BRANCHES, subscribersOf } from "@/lib/auth/scope";
import { audit } from "@/lib/audit/log";
import { config } from "@/lib/config";
import { query, sql, type Queryable } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { withdrawExportsHolding } from "@/lib/export/purge";
import { eraseRecords } from "./erase";

// Retention (docs/configuration.md): subscribers whose travel date is RETENTION_ERASE_AFTER_DAYS
// past and that nobody changed for RETENTION_UNCHANGED_DAYS are erased by the scheduled clean-up,
// by the erasure path of the trash and of a person (their records, their audit values, what held
// them by id, the export files holding them), in short batches so no lock is held for long. Off
// while RETENTION_ERASE_AFTER_DAYS is unset; its first run with a setting only reports (a dry run
// in the audit log), so administrators see what it will erase before it does.

export type RetentionSettings = { erase_after_days: number | null; unchanged_days: number };
export type RetentionDryRun = RetentionSettings & {
  enabled: boolean;
  total: number;
  branches: { branch_id: number | null; branch_name: string | null; count: number }[];
};

/** Rows per transaction: short, so the job never holds row locks long beside users' work. */
const BATCH = 1_000;

export const retentionSettings = (): RetentionSettings => ({
  erase_after_days: config().RETENTION_ERASE_AFTER_DAYS ?? null,
  unchanged_days: config().RETENTION_UNCHANGED_DAYS,
});

/** The subscribers past retention: travel date before the day `erase_after_days` ago, unchanged since `unchanged_days` ago. */
function past(settings: RetentionSettings & { erase_after_days: number }, now: Date) {
  const travelBefore = new Date(now.getTime() - settings.erase_after_days * 86_400_000).toISOString().slice(0, 10);
  const unchangedBefore = new Date(now.getTime() - settings.unchanged_days * 86_400_000);
  return sql`s.travel_date < ${travelBefore}::date AND COALESCE(s.updated_at, s.created_at) < ${unchangedBefore}`;
}

/** How many subscribers a run would erase, per branch (every branch: administrators). Writes nothing. */
export async function retentionDryRun(settings: RetentionSettings = retentionSettings(), now = new Date(), db: Queryable = { query }): Promise<RetentionDryRun> {
  const { erase_after_days } = settings;
  if (erase_after_days === null) return { ...settings, enabled: config().RETENTION_ERASE_AFTER_DAYS !== undefined, total: 0, branches: [] };
  const branches = await db.query<RetentionDryRun["branches"][number]>(sql`
    SELECT s.branch_id, b.name AS branch_name, count(*)::int AS count
      FROM ${subscribersOf(EVERY_BRANCH)} s LEFT JOIN ${LIVE_BRANCHES} b ON b.id = s.branch_id
     WHERE ${past({ ...settings, erase_after_days }, now)}
     GROUP BY s.branch_id, b.name ORDER BY b.name NULLS LAST, s.branch_id`);
  return { ...settings, enabled: config().RETENTION_ERASE_AFTER_DAYS !== undefined, total: branches.reduce((n, b) => n + b.count, 0), branches };
}

export type RetentionRun = { subscribers: number; exports: number; batches: number; dry_run?: RetentionDryRun };

/** The scheduled part: erases what is past retention in batches; the first run with a setting reports only. */
export async function runRetention(now = new Date(), settings: RetentionSettings = retentionSettings(), batch = BATCH): Promise<RetentionRun> {
  const { erase_after_days } = settings;
  if (erase_after_days === null) return { subscribers: 0, exports: 0, batches: 0 };
  const [reported] = await query<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_events WHERE action = 'retention.erase'`);
  if (!reported?.n) {
    const dry = await retentionDryRun(settings, now);
    await audit({ action: "retention.erase", entity: "retention", after: { dry_run: true, subscribers: dry.total, ...settings, branches: dry.branches }, request: { ip: null, userAgent: "retention" } });
    return { subscribers: 0, exports: 0, batches: 0, dry_run: dry };
  }
  const which = past({ ...settings, erase_after_days }, now);
  const result: RetentionRun = { subscribers: 0, exports: 0, batches: 0 };
  for (;;) {
    const erased = await transaction(async (tx) => {
      const rows = await tx.query<{ id: number }>(sql`SELECT s.id FROM ${subscribersOf(EVERY_BRANCH)} s WHERE ${which}
        ORDER BY s.travel_date, s.id LIMIT ${batch} FOR UPDATE SKIP LOCKED`);
      return (await eraseRecords(tx, rows.map((r) => r.id), null)).erased;
    }, { job: true });
    if (erased.length === 0) break;
    result.batches++;
    result.subscribers += erased.length;
    result.exports += await withdrawExportsHolding(erased, now, "retention");
  }
  if (result.subscribers) {
    await audit({ action: "retention.erase", entity: "retention", after: { subscribers: result.subscribers, exports: result.exports, ...settings }, request: { ip: null, userAgent: "retention" } });
  }
  return result;
}
