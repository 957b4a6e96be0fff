-- The turn's first roll made as it starts (it is never a decision): a server's default, and
-- each player's own choice (NULL: the server's), /yahtzee-admin settings and /yahtzee autoroll.
ALTER TABLE guild_settings ADD COLUMN auto_roll INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player_settings ADD COLUMN auto_roll INTEGER;
