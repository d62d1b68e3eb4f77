-- The single sign-on issuer (`iss`) beside the subject (`sub`): the two together, and only they,
-- name the person behind a link (OpenID Connect Core 5.7). Links made before this migration were
-- made with the one provider configured then: their NULL issuer means "the configured provider",
-- and is filled in at that subject's next sign-in (lib/auth/sso.ts).
ALTER TABLE "users" ADD COLUMN "sso_issuer" VARCHAR(255);
