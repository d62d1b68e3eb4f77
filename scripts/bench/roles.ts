// Every scenario as the staff bench user and as the admin bench user, side by side at one
// connection: a cost that only one role pays (the branches page once counted every shown
// branch's subscribers for admins' delete dialogs) shows up as a ratio, not lost in averages.
import { loadHttp } from "./load";
import { targetPath, type Scenario, type Target } from "./scenarios";
import { fmt, median, type Sample } from "./stats";

export type RoleRow = { scenario: string; target: Target; staff: Sample[]; admin: Sample[] };

/** Admins may pay at most this much more than staff for the same page: 20% and 2 ms of noise. */
export const roleGoal = (staffP50: number) => staffP50 * 1.2 + 2;

export async function measureRoles(o: {
  url: string;
  staffCookie: string;
  adminCookie: string;
  scenarios: Scenario[];
  rounds: number;
  seconds: number;
  warmup: number;
}): Promise<RoleRow[]> {
  const rows: RoleRow[] = [];
  for (const scenario of o.scenarios) {
    for (const target of ["api", "html"] as const) {
      const url = `${o.url}${targetPath(scenario, target)}`;
      const row: RoleRow = { scenario: scenario.id, target, staff: [], admin: [] };
      if (o.warmup) {
        await loadHttp({ url, cookie: o.staffCookie, connections: 1, seconds: o.warmup });
        await loadHttp({ url, cookie: o.adminCookie, connections: 1, seconds: o.warmup });
      }
      // Interleaved, so that a noisy moment of the machine falls on both roles.
      for (let r = 0; r < o.rounds; r++) {
        row.staff.push(await loadHttp({ url, cookie: o.staffCookie, connections: 1, seconds: o.seconds }));
        row.admin.push(await loadHttp({ url, cookie: o.adminCookie, connections: 1, seconds: o.seconds }));
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
    const ok = admin <= roleGoal(staff);
    if (ok) met++;
    const errors = [...r.staff, ...r.admin].reduce((n, s) => n + s.errors, 0);
    return `| ${r.scenario} | ${r.target} | ${fmt(staff)} | ${fmt(admin)} | ${(admin / staff).toFixed(2)} | ${ok ? "✓" : "✗"} admin p50 ≤ 1.2 × staff p50 + 2 (${fmt(roleGoal(staff))})${errors ? `; ${errors} errors` : ""} |`;
  });
  const table = [
    "| scenario | target | staff p50 ms | admin p50 ms | admin / staff | goal |",
    "|---|---|--:|--:|--:|---|",
    ...lines,
  ].join("\n");
  return { table, met, total: rows.length };
}
