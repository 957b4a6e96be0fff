-- Nothing that runs while the bot serves reads every game (issue 40): an index for each
-- lookup by place, the games counted by status as they change (a /metrics scrape reads five
-- rows, not the games table), and retention's work list kept in an index.

-- The game that finished last in a channel (/yahtzee scorecard where no game is going on);
-- a thread's games are found by games_thread.
CREATE INDEX games_finished_in_channel
    ON games (channel_id, finished_at, id) WHERE status = 'finished';
-- The live games of a server, or of one of its channels (a server left, a channel deleted).
CREATE INDEX games_live_place
    ON games (guild_id, channel_id) WHERE status IN ('lobby', 'active');
-- Finished games whose final message is still to be posted (a repair after a reconnect).
CREATE INDEX games_final_missing
    ON games (id) WHERE status = 'finished' AND final_message_id IS NULL;

-- Retention: when a game's move log was deleted (NULL: it is kept). The games whose log is
-- still kept, oldest ending first, are an index range: a batch reads only the games it prunes.
ALTER TABLE games ADD COLUMN moves_pruned_at TEXT;
UPDATE games SET moves_pruned_at = finished_at
    WHERE status IN ('finished', 'abandoned')
    AND NOT EXISTS (SELECT 1 FROM moves WHERE moves.game_id = games.id);
CREATE INDEX games_to_prune
    ON games (finished_at) WHERE status IN ('finished', 'abandoned') AND moves_pruned_at IS NULL;

-- How many games have ended in each way, kept by the database itself as games change (the
-- live ones are counted through the games_live index: a few, however old the database).
CREATE TABLE game_counts (
    status TEXT   PRIMARY KEY,
    games  BIGINT NOT NULL
);
INSERT INTO game_counts (status, games)
    SELECT s.status, (SELECT COUNT(*) FROM games WHERE games.status = s.status)
    FROM (VALUES ('finished'), ('abandoned'), ('cancelled')) AS s (status);
CREATE FUNCTION games_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE game_counts SET games = games - 1 WHERE status = OLD.status;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        UPDATE game_counts SET games = games + 1 WHERE status = NEW.status;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER games_counted_insert AFTER INSERT OR DELETE ON games
    FOR EACH ROW EXECUTE FUNCTION games_counted();
CREATE TRIGGER games_counted_update AFTER UPDATE OF status ON games
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION games_counted();
