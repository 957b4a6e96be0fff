-- Every game knows its place (issue 51): a game opened before migration 022 (place NULL) is
-- played in 'token' where token_places names its channel or thread, else in 'channel'; the
-- Discord side then picks where a game's messages go from the game alone.
UPDATE games SET place = CASE
    WHEN channel_id IN (SELECT channel_id FROM token_places)
        OR thread_id IN (SELECT channel_id FROM token_places) THEN 'token'
    ELSE 'channel'
END
WHERE place IS NULL;
