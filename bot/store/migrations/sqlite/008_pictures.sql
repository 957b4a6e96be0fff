-- Whether a game's boards carry pictures: off when the bot may not attach files where the
-- game is played (the boards then carry the scorecard as text).
ALTER TABLE games ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1;
