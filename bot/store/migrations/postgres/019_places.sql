-- Places (issue 43): games in DMs, group DMs and servers that never added the bot.

-- The channels the bot reaches only through interactions' tokens (a group DM, a DM between
-- users, a server where only members installed the app), so that after a restart nothing
-- is posted there by a channel route (which Discord refuses: 50001) and the next click
-- shows what is due.
CREATE TABLE token_places (
    channel_id BIGINT PRIMARY KEY,
    kind       TEXT   NOT NULL,
    noted_at   TEXT   NOT NULL
);

-- The names of players of games outside servers are kept under guild 0, as on SQLite
-- (where a NULL guild made a new row per game).
UPDATE player_names SET guild_id = 0 WHERE guild_id IS NULL;

-- A group's own leaderboard: the results of games outside servers, by channel.
CREATE INDEX results_board_by_channel
    ON results (channel_id, archived, user_id, finished_at, total, place, seats, yahtzees, upper_bonus)
    WHERE guild_id IS NULL;
