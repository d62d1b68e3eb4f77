// The sign-in throttle's settings and its clean-up. No "server-only": the separate worker process
// (scripts/worker.ts) runs the clean-up too.
import { prisma } from "@/lib/db/client";

const positive = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};
export const throttleSettings = () => ({
  windowMs: positive("LOGIN_WINDOW_MINUTES", 15) * 60_000,
  perAccount: positive("LOGIN_MAX_FAILURES", 5),
  perIp: positive("LOGIN_MAX_FAILURES_PER_IP", 30),
});

/**
 * Drops the attempts that left the window: no pause is ever decided on them (the scheduled
 * clean-up runs this, lib/export/worker.ts). Returns how many went.
 */
export async function purgeLoginAttempts(now = new Date()): Promise<number> {
  const { windowMs } = throttleSettings();
  const { count } = await (await prisma()).loginAttempt.deleteMany({ where: { created_at: { lt: new Date(now.getTime() - windowMs) } } });
  return count;
}
