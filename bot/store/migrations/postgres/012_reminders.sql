-- The half-time reminder of the turn being played, if one is posted: deleted when the turn
-- ends, also by a bot process that restarted in between (it used to be known in memory only).
ALTER TABLE games ADD COLUMN reminder_message_id BIGINT;
