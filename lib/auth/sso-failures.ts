import "server-only";
import { audit } from "@/lib/audit/log";
import { requestInfo } from "@/lib/audit/context";
import { scopeSlot } from "@/lib/request-scope";
import { log } from "@/lib/telemetry/log";

// An answer of the identity provider that next-auth refused (a state, PKCE verifier or nonce that
// does not match, a bad signature, an error the provider sent back) reaches the console only as a
// line of next-auth's logger: it is noted here and audited by the callback's route, awaited.

type Noted = { codes: string[]; message: string | null };
const noted = scopeSlot<Noted>("auth.sso-callback");

/** next-auth's logger.error: a log line always; inside a callback, noted for its audit. */
export function noteAuthError(code: string, metadata: unknown) {
  const error = metadata instanceof Error ? metadata : (metadata as { error?: unknown } | null)?.error;
  const message = (error instanceof Error ? error.message : typeof error === "string" ? error : code).slice(0, 300);
  log.warn({ code, reason: message }, "next-auth refused a sign-in step");
  const seen = noted.get();
  if (!seen) return;
  if (!seen.codes.includes(code)) seen.codes.push(code);
  seen.message ??= message;
}

/** Runs next-auth's single sign-on callback; what it refused is audited before the answer leaves. */
export async function duringSsoCallback<T>(run: () => Promise<T>): Promise<T> {
  const seen: Noted = { codes: [], message: null };
  const result = await noted.run(seen, run);
  if (seen.codes.length) {
    await audit({
      action: "auth.sso_refused",
      after: { reason: "provider_answer_refused", codes: seen.codes, message: seen.message },
      request: await requestInfo(),
    });
  }
  return result;
}
