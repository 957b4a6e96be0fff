-- Where a game is played, as the interaction that opened it said (issue 49): 'channel' (the
-- bot posts by its own routes: a server that added it, its DM) or 'token' (only interactions'
-- tokens reach: a group DM, a server that never added it); kept in step with the channel's
-- place as later interactions say it (a server may add the bot mid-game). NULL: opened
-- before this migration (token_places says).
ALTER TABLE games ADD COLUMN place TEXT;
