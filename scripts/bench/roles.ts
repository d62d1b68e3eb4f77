// Every scenario as the staff bench user and as the admin bench user, side by side at one
// connection: a cost that only one role pays (the branches page once counted every shown
// branch's subscribers for admins' delete dialogs) shows up as a ratio, not lost in averages.
import { loadHttp } from "./load";
import { targetPath, type Scenario, type Target } from "./scenarios";
import { fmt, median, type Sample } from "./stats";

/** `scoped`: the same as a staff member limited to one branch (docs/decisions/0028-branch-scope.md). */
export type RoleRow = { scenario: string; target: Target; staff: Sample[]; admin: Sample[]; scoped: Sample[] };

/** Admins may pay at most this much more than staff for the same page: 20% and 2 ms of noise. */
export const roleGoal = (staffP50: number) => staffP50 * 1.2 + 2;

export async function measureRoles(o: {
  url: string;
  staffCookie: string;
  adminCookie: string;
  scopedCookie: string;
  scenarios: Scenario[];
  rounds: number;
  seconds: number;
  warmup: number;
}): Promise<RoleRow[]> {
  const rows: RoleRow[] = [];
  for (const scenario of o.scenarios) {
    for (const target of ["api", "html"] as const) {
      const url = `${o.url}${targetPath(scenario, target)}`;
      const row: RoleRow = { scenario: scenario.id, target, staff: [], admin: [], scoped: [] };
      if (o.warmup) {
        await loadHttp({ url, cookie: o.staffCookie, connections: 1, seconds: o.warmup });
        await loadHttp({ url, cookie: o.adminCookie, connections: 1, seconds: o.warmup });
        await loadHttp({ url, cookie: o.scopedCookie, connections: 1, seconds: o.warmup });
      }
      // Interleaved, so that a noisy moment of the machine falls on both roles.
      for (let r = 0; r < o.rounds; r++) {
        row.staff.push(await loadHttp({ url, cookie: o.staffCookie, connections: 1, seconds: o.seconds }));
        row.admin.push(await loadHttp({ url, cookie: o.adminCookie, connections: 1, seconds: o.seconds }));
        row.scoped.push(await loadHttp({ url, cookie: o.scopedCookie, connections: 1, seconds: o.seconds }));
      }
      rows.push(row);
    }
  }
  return rows;
}

export function rolesMarkdown(rows: RoleRow[]): { table: string; met: number; total: number } {
  let met = 0;
  const lines = rows.map((r) => {
    const staff = median(r.staff.map((s) => s.p50));
    const admin = median(r.admin.map((s) => s.p50));
    const scoped = median(r.scoped.map((s) => s.p50));
    const ok = admin <= roleGoal(staff) && scoped <= roleGoal(staff);
    if (ok) met++;
    const errors = [...r.staff, ...r.admin, ...r.scoped].reduce((n, s) => n + s.errors, 0);
    const mark = (p50: number) => (p50 <= roleGoal(staff) ? "✓" : "✗");
    return `| ${r.scenario} | ${r.target} | ${fmt(staff)} | ${fmt(admin)} | ${fmt(scoped)} | ${(admin / staff).toFixed(2)} | ${(scoped / staff).toFixed(2)} | ${mark(admin)} admin, ${mark(scoped)} scoped p50 ≤ 1.2 × staff p50 + 2 (${fmt(roleGoal(staff))})${errors ? `; ${errors} errors` : ""} |`;
  });
  const table = [
    "| scenario | target | staff p50 ms | admin p50 ms | scoped staff p50 ms | admin / staff | scoped / staff | goal |",
    "|---|---|--:|--:|--:|--:|--:|---|",
    ...lines,
  ].join("\n");
  return { table, met, total: rows.length };
}
