-- The daily challenge: a game on the day's dice (games.daily names the day), one try per
-- person per day across every server. A try is claimed when its game is made (score NULL
-- until it finishes), so an abandoned try is still today's try.
ALTER TABLE games ADD COLUMN daily TEXT;
CREATE TABLE daily_results (
    day         TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    guild_id    INTEGER,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    name        TEXT    NOT NULL,
    score       INTEGER,
    optimal     INTEGER,
    finished_at TEXT,
    PRIMARY KEY (day, user_id)
);
CREATE INDEX daily_results_by_guild ON daily_results (day, guild_id, score);
CREATE UNIQUE INDEX daily_results_by_game ON daily_results (game_id);
