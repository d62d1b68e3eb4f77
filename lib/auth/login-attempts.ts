// No "server-only": the separate worker process runs the clean-up too.
import { config } from "@/lib/config";
import { transaction } from "@/lib/db/transaction";

export const throttleSettings = () => {
  const c = config();
  return { windowMs: c.LOGIN_WINDOW_MINUTES * 60_000, perAccount: c.LOGIN_MAX_FAILURES, perIp: c.LOGIN_MAX_FAILURES_PER_IP };
};

/** Drops the attempts that left the window (no pause is decided on them); returns how many went. */
export async function purgeLoginAttempts(now = new Date()): Promise<number> {
  const { windowMs } = throttleSettings();
  const { count } = await transaction((tx) => tx.loginAttempt.deleteMany({ where: { created_at: { lt: new Date(now.getTime() - windowMs) } } }), { job: true });
  return count;
}
