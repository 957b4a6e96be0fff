-- Turn timers kept with the game (so they survive restarts), threads, and server settings.
ALTER TABLE games ADD COLUMN deadline_at TEXT;     -- the lobby's or the current turn's time limit
ALTER TABLE games ADD COLUMN ping_at TEXT;         -- when to remind the player (half time)
ALTER TABLE games ADD COLUMN last_move_at TEXT;    -- the last move a person made
ALTER TABLE games ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 0;   -- 0: no timer
ALTER TABLE games ADD COLUMN timeout_policy TEXT NOT NULL DEFAULT 'scratch';
ALTER TABLE games ADD COLUMN thread_id BIGINT;     -- the thread the game is played in, if any

CREATE INDEX games_due ON games (deadline_at) WHERE status IN ('lobby', 'active');
CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;

CREATE TABLE guild_settings (
    guild_id       BIGINT  PRIMARY KEY,
    preset         TEXT    NOT NULL DEFAULT 'official',
    turn_seconds   INTEGER NOT NULL DEFAULT 300,
    timeout_policy TEXT    NOT NULL DEFAULT 'scratch',
    use_threads    INTEGER NOT NULL DEFAULT 0,
    updated_by     BIGINT,
    updated_at     TEXT
);
