-- A token's requests in its current minute, shared by every server process and instance.
-- UNLOGGED: no WAL for a counter written on every API request; a crash empties it, which
-- forgets at most a minute's counts (docs/decisions/0047-token-rates-in-the-database.md).
CREATE UNLOGGED TABLE "api_token_rates" (
    "token_id" INTEGER NOT NULL,
    "window_start" TIMESTAMPTZ(6) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "api_token_rates_pkey" PRIMARY KEY ("token_id")
);

ALTER TABLE "api_token_rates" ADD CONSTRAINT "api_token_rates_token_id_fkey" FOREIGN KEY ("token_id") REFERENCES "api_tokens"("id") ON DELETE CASCADE ON UPDATE CASCADE;
