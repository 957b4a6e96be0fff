-- The next turn's board an Undo parked (issue 49): it waits, without controls, to be that
-- turn's board again when the scoring is made anew (an edit: its player is not pinged twice).
-- Kept with the game, so that a restart between the Undo and the new scoring still finds it
-- (it was kept in memory only: the player was pinged again and the message waited forever).
-- The turn it waits for is "turn:player id"; NULL: nothing parked.
ALTER TABLE games ADD COLUMN parked_message_id INTEGER;
ALTER TABLE games ADD COLUMN parked_for TEXT;
