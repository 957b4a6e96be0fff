-- Whether a game's players may ask for optimal-play hints (the host decides in the lobby).
ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 1;
