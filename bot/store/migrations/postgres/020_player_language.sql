-- The language a player reads their private turn notices in (/yahtzee notify: their Discord
-- client's, as they last used the command); NULL: the game's.
ALTER TABLE player_settings ADD COLUMN language TEXT;
