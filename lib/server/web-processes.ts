import os from "node:os";
import type { Config } from "@/lib/config";

// How many server processes share the port, and each one's share of the database connections
// (docs/decisions/0036-every-core.md). Pure but for the machine's cores and this process's slot.

/** Set by the supervisor (lib/server/cluster.ts) in each web process it starts: 1, 2, … */
export const WEB_SLOT = "CONSOLE_WEB_SLOT";

/**
 * WEB_CONCURRENCY, or by default one process per core on PostgreSQL, as many as the pool gives two
 * connections each; one on the embedded database, whose files one process opens.
 */
export function webProcesses(settings: Pick<Config, "WEB_CONCURRENCY" | "DATABASE_URL" | "DATABASE_POOL_SIZE">, cores = os.availableParallelism()): number {
  if (settings.WEB_CONCURRENCY !== undefined) return settings.WEB_CONCURRENCY;
  if (!settings.DATABASE_URL) return 1;
  return Math.max(1, Math.min(cores, Math.floor(settings.DATABASE_POOL_SIZE / 2)));
}

/** This process's place among the web processes (1 when it serves alone, or is no web process). */
export function webSlot(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const slot = Number(env[WEB_SLOT]);
  return Number.isSafeInteger(slot) && slot > 0 ? slot : 1;
}

/** DATABASE_POOL_SIZE is the server's; a web process of several gets its share (scripts and workers the whole). */
export function poolShare(settings: Pick<Config, "WEB_CONCURRENCY" | "DATABASE_URL" | "DATABASE_POOL_SIZE">, env: Readonly<Record<string, string | undefined>> = process.env): number {
  if (env[WEB_SLOT] === undefined) return settings.DATABASE_POOL_SIZE;
  return Math.max(1, Math.floor(settings.DATABASE_POOL_SIZE / webProcesses(settings)));
}
