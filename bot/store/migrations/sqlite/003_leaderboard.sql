-- Leaderboards: the names players had in their last game, archives made by a reset, and an
-- index that lets each board read one server's live results grouped by player.
CREATE TABLE player_names (
    guild_id   INTEGER,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE leaderboard_archives (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER,
    archived_by INTEGER NOT NULL,
    archived_at TEXT    NOT NULL,
    results     INTEGER NOT NULL,   -- how many result rows this reset archived
    restored_at TEXT
);

-- results.archived: 0 while on the boards, else the leaderboard_archives id that hid it.
CREATE INDEX results_board_by_player
    ON results (guild_id, archived, user_id, finished_at, total, place, seats, yahtzees, upper_bonus);
DROP INDEX results_by_user;
