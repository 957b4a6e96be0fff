-- Games, one row per lobby or game, and the log of every accepted move.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
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
    finished_at      TEXT
);

-- At most one lobby or running game per channel, whatever the code does.
CREATE UNIQUE INDEX games_one_live_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_live ON games (status) WHERE status IN ('lobby', 'active');

CREATE TABLE moves (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games (id),
    version  INTEGER NOT NULL,   -- the game's version after this move
    user_id  INTEGER,
    action   TEXT    NOT NULL,   -- join, leave, start, roll, hold, score, undo, end, ...
    detail   TEXT,
    dice     TEXT,               -- the dice after the move, e.g. "3-3-4-5-6"
    at       TEXT    NOT NULL,
    UNIQUE (game_id, version)
);
