-- /yahtzee notify: a player's wish to be told privately when a turn of theirs in a timed game
-- has waited a while, and when that is due for the turn being played (cleared once told).
CREATE TABLE player_settings (
    user_id    BIGINT PRIMARY KEY,
    notify     INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
);
ALTER TABLE games ADD COLUMN notify_at TEXT;
CREATE INDEX games_notify ON games (notify_at) WHERE status = 'active' AND notify_at IS NOT NULL;
