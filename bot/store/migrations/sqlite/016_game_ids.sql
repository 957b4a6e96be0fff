-- A game's id is never handed out twice: AUTOINCREMENT (SQLite otherwise reuses the id of
-- the highest game if that row is ever gone). SQLite adds it only by rebuilding the table:
-- the rows wait in a copy while the table is made again with every constraint, default and
-- index it had. The moves, results and daily results that name a game keep pointing at it:
-- the foreign keys are checked at COMMIT (defer_foreign_keys), by when every game is back
-- under its own id. The sequence starts after the highest id copied.
--
-- opened_by: the Discord id (a snowflake, which grows with time) of the command or click
-- that opened the game. No message that shows the game can be older: after an operator
-- restores an older backup, a button on a message of a game the backup lost names an id
-- that a newer game may have again, and is told apart by its message's id (bot.games.
-- tracking.check_click). NULL for games opened before this migration.
PRAGMA defer_foreign_keys = ON;

CREATE TEMP TABLE games_copy AS SELECT * FROM games;

DROP TABLE games;

CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    status           TEXT    NOT NULL
                     CHECK (status IN ('lobby', 'active', 'finished', 'abandoned', 'cancelled')),
    preset           TEXT    NOT NULL,
    players          TEXT    NOT NULL DEFAULT '[]',  -- JSON [[user_id, name], ...] in join order
    state            TEXT,                            -- the engine's JSON once the game starts
    state_format     INTEGER,                         -- the engine's format version of state
    version          INTEGER NOT NULL DEFAULT 0,      -- +1 on every accepted change
    board_message_id INTEGER,                         -- the live message (lobby or turn)
    board_turn       INTEGER,                         -- the turn that message shows
    board_version    INTEGER,                         -- the version that message shows
    undo_message_id  INTEGER,                         -- last turn's message, while it offers Undo
    final_message_id INTEGER,
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    finished_at      TEXT,
    deadline_at      TEXT,                            -- the lobby's or the turn's time limit
    ping_at          TEXT,                            -- when to remind the player (half time)
    last_move_at     TEXT,                            -- the last move a person made
    turn_seconds     INTEGER NOT NULL DEFAULT 0,      -- 0: no timer
    timeout_policy   TEXT    NOT NULL DEFAULT 'scratch',
    thread_id        INTEGER,                         -- the thread it is played in, if any
    hints            INTEGER NOT NULL DEFAULT 1,
    pictures         INTEGER NOT NULL DEFAULT 1,
    daily            TEXT,
    reminder_message_id INTEGER,
    notify_at        TEXT,
    language         TEXT    NOT NULL DEFAULT 'en',
    opened_by        INTEGER                          -- the request (a Discord id) that opened it
);

INSERT INTO games (
    id, guild_id, channel_id, host_id, status, preset, players, state, state_format, version,
    board_message_id, board_turn, board_version, undo_message_id, final_message_id,
    created_at, updated_at, finished_at, deadline_at, ping_at, last_move_at, turn_seconds,
    timeout_policy, thread_id, hints, pictures, daily, reminder_message_id, notify_at, language
)
SELECT
    id, guild_id, channel_id, host_id, status, preset, players, state, state_format, version,
    board_message_id, board_turn, board_version, undo_message_id, final_message_id,
    created_at, updated_at, finished_at, deadline_at, ping_at, last_move_at, turn_seconds,
    timeout_policy, thread_id, hints, pictures, daily, reminder_message_id, notify_at, language
FROM games_copy ORDER BY id;

DROP TABLE games_copy;

-- The indexes the table had (migrations 001, 004, 010, 013), as they were.
CREATE INDEX games_live ON games (status) WHERE status IN ('lobby', 'active');
CREATE INDEX games_due ON games (deadline_at) WHERE status IN ('lobby', 'active');
CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;
CREATE UNIQUE INDEX games_one_live_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active') AND daily IS NULL;
CREATE INDEX games_live_daily ON games (host_id)
    WHERE status IN ('lobby', 'active') AND daily IS NOT NULL;
CREATE INDEX games_notify ON games (notify_at) WHERE status = 'active' AND notify_at IS NOT NULL;
