-- Places (issue 43): games in DMs, group DMs and servers that never added the bot.

-- The channels the bot reaches only through interactions' tokens (a group DM, a DM between
-- users, a server where only members installed the app), so that after a restart nothing
-- is posted there by a channel route (which Discord refuses: 50001) and the next click
-- shows what is due.
CREATE TABLE token_places (
    channel_id INTEGER PRIMARY KEY,
    kind       TEXT    NOT NULL,
    noted_at   TEXT    NOT NULL
);

-- The names of players of games outside servers are kept under guild 0: a NULL guild made
-- a new row per game here (NULLs are distinct in SQLite's key). The newest row stays.
DELETE FROM player_names
    WHERE guild_id IS NULL
      AND rowid NOT IN (
          SELECT rowid FROM player_names AS newest
          WHERE newest.guild_id IS NULL AND newest.user_id = player_names.user_id
          ORDER BY newest.updated_at DESC, newest.rowid DESC LIMIT 1
      );
UPDATE player_names SET guild_id = 0 WHERE guild_id IS NULL;

-- A group's own leaderboard: the results of games outside servers, by channel.
CREATE INDEX results_board_by_channel
    ON results (channel_id, archived, user_id, finished_at, total, place, seats, yahtzees, upper_bonus)
    WHERE guild_id IS NULL;
