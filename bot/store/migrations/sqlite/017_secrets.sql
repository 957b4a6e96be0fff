-- This deployment's secrets, made by the bot on its first start (never by a migration:
-- secrets.token_bytes, not the database's random()) and kept here so that every process and
-- shard on one database shares them, and a backup and its restore keep them.
-- 'daily': the key of the HMAC that rolls the daily challenge's dice (hex), so nobody can
-- work out a day's dice before playing it.
CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
