import { z } from "zod";

// Settings read from the environment and validated once, with a message that names the variable
// and says how to fix it. The README's configuration table documents each of them.

export class ConfigError extends Error {}

const MIN_SECRET_BYTES = 32;
const SECRET_HELP =
  "Make one with `openssl rand -base64 32` and keep it where the server reads it on every start " +
  "(your secret manager, or an env file readable only by the service): changing it signs everyone out.";

/** Checks a session-signing secret: long enough to resist guessing, and not blank. */
export function secretProblem(value: string | undefined): string | null {
  if (value === undefined || value === "") return "is not set";
  if (value.trim() === "") return "is only whitespace";
  if (Buffer.byteLength(value, "utf8") < MIN_SECRET_BYTES) return `is shorter than ${MIN_SECRET_BYTES} bytes`;
  return null;
}

const schema = z.object({
  NEXTAUTH_URL: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || /^https?:\/\/[^/]+\/?$/.test(v), "must be the console's public origin, e.g. https://console.example.com"),
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .refine(
      (v) => !v || /^\d{1,2}$/.test(v),
      "must be the number of reverse proxies in front of the console (e.g. 1), or unset when clients connect directly; " +
        "`true` is no longer accepted, as it let the client choose its own address",
    )
    .transform((v) => (v ? Number(v) : 0)),
  HOST: z.string().trim().optional(),
  PORT: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || (/^\d{1,5}$/.test(v) && Number(v) > 0 && Number(v) < 65536), "must be a port number (1–65535)")
    .transform((v) => (v ? Number(v) : 3000)),
});

export type ServerEnv = z.output<typeof schema> & { NEXTAUTH_SECRET: string | undefined; production: boolean };

/** The validated settings; throws a ConfigError naming every bad variable. Read at start-up. */
export function serverEnv(source: NodeJS.ProcessEnv = process.env): ServerEnv {
  const parsed = schema.safeParse(source);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}.`);
  const production = source.NODE_ENV === "production";
  const secret = source.NEXTAUTH_SECRET;
  const secretIssue = secretProblem(secret);
  // Development and tests may run without a secret (no one can sign in then); production may not.
  if (secretIssue && (production || secret !== undefined)) problems.push(`NEXTAUTH_SECRET ${secretIssue}. ${SECRET_HELP}`);
  if (problems.length || !parsed.success) throw new ConfigError(problems.join("\n"));
  return { ...parsed.data, NEXTAUTH_SECRET: secret, production };
}
