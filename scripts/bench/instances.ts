// `npm run bench -- --instances N`: one web instance against N on this machine, behind a
// round-robin balancer (nginx with docs/deployment.md's configuration when it is installed, else a Node
// TCP balancer), on the bench database. Three configurations are measured in the same rounds,
// interleaved: one instance directly, one instance behind the balancer (what the balancer itself
// costs), and N instances behind it. Every instance has its own connection pool; the per-user
// limit of heavy lists (HEAVY_REQUESTS_PER_USER, per process) is raised so that the bench user's
// connections stand for many staff members, each with a request in flight.
import crypto from "node:crypto";
import { nginxBinary, startNginx } from "@/tools/nginx";
import { startTcpBalancer, type Balancer } from "./balancer";
import { loadHttp } from "./load";
import { targetPath, type Scenario, type Target } from "./scenarios";
import { freePort, startServer, type Server } from "./server";
import { fmt, median, type Sample } from "./stats";

export type InstancesRow = { scenario: string; target: Target; config: string; samples: Sample[] };

async function balancer(ports: number[]): Promise<Balancer> {
  if (!nginxBinary()) return startTcpBalancer(ports);
  const nginx = await startNginx(ports.map((p) => `127.0.0.1:${p}`), await freePort());
  return { url: nginx.url, name: "nginx with docs/deployment.md's configuration", stop: nginx.stop };
}

export async function measureInstances(o: {
  dir: string;
  env: Record<string, string>;
  instances: number;
  scenarios: Scenario[];
  connections: number;
  rounds: number;
  seconds: number;
  warmup: number;
  signIn: (url: string) => Promise<string>;
  log: (line: string) => void;
}): Promise<{ rows: InstancesRow[]; balancer: string }> {
  const env = {
    ...o.env,
    // One secret for all: a session is good on every instance, as in a deployment.
    NEXTAUTH_SECRET: crypto.randomBytes(32).toString("base64url"),
    HEAVY_REQUESTS_PER_USER: String(o.connections),
    HEAVY_REQUESTS_QUEUE: String(o.connections),
  };
  const servers: Server[] = [];
  const proxies: Balancer[] = [];
  try {
    o.log(`› Starting ${o.instances} instances…`);
    for (let i = 0; i < o.instances; i++) servers.push(await startServer(o.dir, env));
    const ports = servers.map((s) => Number(new URL(s.url).port));
    const one = await balancer(ports.slice(0, 1));
    proxies.push(one);
    const all = await balancer(ports);
    proxies.push(all);
    const cookie = await o.signIn(servers[0]!.url);
    const configs = [
      { name: "1 instance, direct", url: servers[0]!.url },
      { name: "1 instance, balancer", url: one.url },
      { name: `${o.instances} instances, balancer`, url: all.url },
    ];
    const rows: InstancesRow[] = [];
    for (const scenario of o.scenarios) {
      for (const target of ["api", "html"] as const) {
        const path = targetPath(scenario, target);
        const cells = configs.map((c) => ({ ...c, row: { scenario: scenario.id, target, config: c.name, samples: [] as Sample[] } }));
        for (const c of cells) if (o.warmup) await loadHttp({ url: `${c.url}${path}`, cookie, connections: o.connections, seconds: o.warmup });
        // Interleaved: a noisy moment of the shared machine falls on every configuration.
        const failures = new Map<number, number>();
        for (let r = 0; r < o.rounds; r++) {
          for (const c of cells) c.row.samples.push(await loadHttp({ url: `${c.url}${path}`, cookie, connections: o.connections, seconds: o.seconds, failures }));
        }
        if (failures.size > 0) {
          // Say why rather than print a table of errors: the answers, and the instances' state and words.
          o.log(`  answers that were not 2xx, by status (0: no answer): ${JSON.stringify(Object.fromEntries(failures))}`);
          for (const [i, server] of servers.entries()) {
            o.log(`  instance ${i + 1} (${server.url}, pid ${server.pid}): ${server.ended() ?? "running"}; last lines:\n${server.log().slice(-1500)}`);
          }
        }
        const rps = (c: (typeof cells)[number]) => median(c.row.samples.map((s) => s.rps)).toFixed(0);
        o.log(`› ${scenario.id} ${target} ×${o.connections}: ${cells.map((c) => `${c.name} ${rps(c)} req/s`).join(", ")}`);
        rows.push(...cells.map((c) => c.row));
      }
    }
    return { rows, balancer: all.name };
  } catch (error) {
    for (const s of servers) console.error(s.log().slice(-3000));
    throw error;
  } finally {
    for (const p of proxies) await p.stop();
    for (const s of servers) await s.stop();
  }
}

export function instancesMarkdown(rows: InstancesRow[], instances: number): string {
  const m = (r: InstancesRow, k: "p50" | "p95" | "rps") => median(r.samples.map((s) => s[k]));
  const base = (r: InstancesRow) => rows.find((x) => x.scenario === r.scenario && x.target === r.target && x.config === "1 instance, balancer")!;
  const lines = rows.map((r) => {
    const errors = r.samples.reduce((n, s) => n + s.errors, 0);
    const ratio = m(r, "rps") / m(base(r), "rps");
    return `| ${r.scenario} | ${r.target} | ${r.config} | ${fmt(m(r, "p50"))} | ${fmt(m(r, "p95"))} | ${m(r, "rps").toFixed(0)}${errors ? ` (${errors} errors)` : ""} | ${ratio.toFixed(2)} |`;
  });
  return [
    `| scenario | target | configuration | p50 ms | p95 ms | req/s | req/s ÷ 1 instance behind the balancer |`,
    "|---|---|---|--:|--:|--:|--:|",
    ...lines,
    "",
    `${instances} instances ÷ 1, median over the targets: ${median(rows.filter((r) => r.config.startsWith(`${instances} `)).map((r) => m(r, "rps") / m(base(r), "rps"))).toFixed(2)}×.`,
  ].join("\n");
}
