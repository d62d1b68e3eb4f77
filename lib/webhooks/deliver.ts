import { config } from "@/lib/config";
import { connection, sql } from "@/lib/db/sql";
import { transaction } from "@/lib/db/transaction";
import { cutText, problem, readProblem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { processWide } from "@/lib/process-wide";
import { log, logError } from "@/lib/telemetry/log";
import { disabledReason } from "./disabled-reason";
import { postWebhook, type Attempt, type SendOptions } from "./send";
import { webhookHeaders } from "./sign";

// The delivery worker (docs/decisions/0045-webhooks.md). The outbox's rows are the queue: a worker
// claims due deliveries with FOR UPDATE SKIP LOCKED and leases them (next_attempt_at moved LEASE_SECONDS
// ahead), so a worker killed mid-attempt loses nothing: the lease runs out and another attempt (same
// `webhook-id`) follows. At most WEBHOOK_CONCURRENCY attempts are in flight per process, each ≤ 10 s.

/** Longer than an attempt (10 s) and its bookkeeping: an unfinished lease means the worker died. */
export const LEASE_SECONDS = 30;
/** The wait after each failed attempt, in multiples of WEBHOOK_RETRY_FIRST_SECONDS: 10 attempts over about a day by default. */
export const RETRY_STEPS = [1, 4, 20, 60, 120, 240, 480, 960, 960] as const;
export const MAX_ATTEMPTS = RETRY_STEPS.length + 1;
const POLL_MS = 1_000;

/** Seconds until the next attempt after `attempts` failed ones (±10 %, so receivers that come back are not hit at once); null: none, dead. */
export function retryDelaySeconds(attempts: number, first = config().WEBHOOK_RETRY_FIRST_SECONDS, random = Math.random): number | null {
  const step = RETRY_STEPS[attempts - 1];
  if (step === undefined) return null;
  return Math.max(1, Math.round(step * first * (0.9 + 0.2 * random())));
}

/** Whether an endpoint failing since `failingSince` is turned off now. */
export function shouldDisable(failingSince: Date | null, now = new Date(), days = config().WEBHOOK_DISABLE_AFTER_DAYS): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= days * 86_400_000;
}

/** `lease`: its next_attempt_at as text, to the microsecond, which a finishing attempt must still find. */
type Claimed = { id: string; lease: string; attempts: number };

/** Leases up to `n` due deliveries. */
export async function claimDeliveries(n: number): Promise<Claimed[]> {
  return transaction((tx) => tx.query<Claimed>(sql`WITH due AS (
      SELECT id FROM webhook_deliveries WHERE status IN ('pending', 'failed') AND next_attempt_at <= now()
      ORDER BY next_attempt_at LIMIT ${n} FOR UPDATE SKIP LOCKED)
    UPDATE webhook_deliveries d SET next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = d.attempts + 1, updated_at = now()
      FROM due WHERE d.id = due.id
    RETURNING d.id::text AS id, d.next_attempt_at::text AS lease, d.attempts`));
}

type Work = {
  type: string;
  data: unknown;
  created_at: Date;
  event_id: string;
  endpoint_id: number;
  url: string;
  enabled: boolean;
  secrets: string[];
};

/** One attempt of a claimed delivery: sent, then its row (and its endpoint's health) updated, unless the lease was taken meanwhile. */
export async function attemptDelivery(claimed: Claimed, options: SendOptions = {}): Promise<Attempt | null> {
  const conn = await connection();
  const [work] = await conn.query<Work>(sql`SELECT ev.type, ev.data, ev.created_at, ev.id AS event_id, ep.id AS endpoint_id, ep.url, ep.enabled,
      array_remove(ARRAY[ep.secret, CASE WHEN ep.previous_secret_until > now() THEN ep.previous_secret END], NULL) AS secrets
    FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
    WHERE d.id = ${claimed.id}::bigint`);
  if (!work) return null;
  let attempt: Attempt;
  if (!work.enabled && work.type !== "ping") {
    attempt = { delivered: false, status: null, body: problem("webhooks.attempt.turnedOff"), durationMs: 0 };
  } else {
    const body = JSON.stringify({ type: work.type, timestamp: new Date(work.created_at).toISOString(), data: work.data });
    const headers = webhookHeaders(work.secrets, work.event_id, Math.floor(Date.now() / 1000), body);
    attempt = await postWebhook(work.url, headers, body, {
      allowPrivate: config().WEBHOOK_ALLOW_PRIVATE,
      allowHttp: config().WEBHOOK_ALLOW_HTTP,
      ...options,
    });
  }
  await recordAttempt(claimed, work, attempt);
  return attempt;
}

/** What a disabled reason quotes of the last attempt: its status, else why it got none (a network error's code or own text), in English as the reason is kept. */
function lastOf(attempt: Attempt): string {
  if (attempt.status !== null) return String(attempt.status);
  const p = readProblem(attempt.body);
  const reason = p?.key === "webhooks.attempt.failed" ? p.values?.reason : p?.values?.code;
  return (typeof reason === "string" ? reason : problemsIn("en")(attempt.body)).slice(0, 200);
}

async function recordAttempt(claimed: Claimed, work: Work, attempt: Attempt) {
  const gone = !work.enabled && work.type !== "ping";
  const delay = attempt.delivered || gone ? null : retryDelaySeconds(claimed.attempts);
  const status = attempt.delivered ? "delivered" : gone || delay === null ? "dead" : "failed";
  await transaction(async (tx) => {
    const updated = await tx.query(sql`UPDATE webhook_deliveries SET status = ${status}::"WebhookDeliveryStatus",
        response_status = ${attempt.status}, response_body = ${cutText(attempt.body, 1000)}, duration_ms = ${attempt.durationMs},
        next_attempt_at = ${delay === null ? null : sql`now() + make_interval(secs => ${delay})`}, updated_at = now()
      WHERE id = ${claimed.id}::bigint AND next_attempt_at = ${claimed.lease}::timestamptz RETURNING id`);
    // Resent meanwhile: the newer attempt's row is not overwritten.
    if (updated.length === 0 || gone) return;
    if (attempt.delivered) {
      await tx.query(sql`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${work.endpoint_id} AND failing_since IS NOT NULL`);
      return;
    }
    const [endpoint] = await tx.query<{ failing_since: Date; enabled: boolean; url: string }>(sql`UPDATE webhook_endpoints
        SET failing_since = COALESCE(failing_since, now()) WHERE id = ${work.endpoint_id} RETURNING failing_since, enabled, url`);
    if (!endpoint?.enabled || !shouldDisable(endpoint.failing_since)) return;
    const days = config().WEBHOOK_DISABLE_AFTER_DAYS;
    // Kept in English; the pages say it in the reader's language (lib/webhooks/disabled-reason.ts).
    const reason = disabledReason(days, lastOf(attempt));
    await tx.query(sql`UPDATE webhook_endpoints SET enabled = false, disabled_reason = ${reason}, updated_at = now() WHERE id = ${work.endpoint_id}`);
    await tx.audit({
      action: "webhook.disable",
      actor: null,
      entity: "webhook",
      entityId: work.endpoint_id,
      after: { url: endpoint.url, reason, failing_since: endpoint.failing_since.toISOString() },
      request: { ip: null, userAgent: "webhook delivery" },
    });
    log.warn({ webhook: work.endpoint_id, reason }, "webhook endpoint turned off");
  });
}

const current = processWide("webhooks.deliver", () => ({ loop: undefined as { stop: () => Promise<void> } | undefined }));

/** Starts delivering in this process (the job worker's), once. */
export function startWebhookDelivery(): void {
  if (current.loop) return;
  let stopping = false;
  let wake: (() => void) | undefined;
  const inFlight = new Set<Promise<unknown>>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const run = (async () => {
    while (!stopping) {
      const free = config().WEBHOOK_CONCURRENCY - inFlight.size;
      let claimed: Claimed[] = [];
      if (free > 0) {
        try {
          claimed = await claimDeliveries(free);
        } catch (error) {
          logError(error, "webhooks: could not claim deliveries");
        }
      }
      for (const c of claimed) {
        const p = attemptDelivery(c)
          .catch((error: unknown) => logError(error, "webhooks: delivery attempt failed", { delivery: c.id }))
          .finally(() => {
            inFlight.delete(p);
            wake?.();
          });
        inFlight.add(p);
      }
      // All slots filled and more may be due: look again as soon as one frees; otherwise at the next poll.
      if (!stopping) await sleep(claimed.length > 0 && claimed.length === free ? 0 : POLL_MS);
    }
  })();
  current.loop = {
    stop: async () => {
      stopping = true;
      wake?.();
      await run;
      // The attempts in flight end within 10 s; an unfinished one's lease hands it to the next worker.
      await Promise.allSettled([...inFlight]);
    },
  };
}

export async function stopWebhookDelivery(): Promise<void> {
  const loop = current.loop;
  current.loop = undefined;
  await loop?.stop();
}
