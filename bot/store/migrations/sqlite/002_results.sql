-- One row per human seat of every finished game, written in the game-ending transaction.
CREATE TABLE results (
    id              INTEGER PRIMARY KEY,
    game_id         INTEGER NOT NULL REFERENCES games (id),
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    total           INTEGER NOT NULL,
    upper_total     INTEGER NOT NULL,
    upper_bonus     INTEGER NOT NULL,
    yahtzees        INTEGER NOT NULL,
    yahtzee_bonuses INTEGER NOT NULL,
    place           INTEGER,
    seats           INTEGER NOT NULL,
    preset          TEXT    NOT NULL,
    finished_at     TEXT    NOT NULL,
    archived        INTEGER NOT NULL DEFAULT 0,
    UNIQUE (game_id, user_id)
);
CREATE INDEX results_by_guild ON results (guild_id, archived, finished_at);
CREATE INDEX results_by_user ON results (guild_id, user_id, archived);
