-- A daily challenge is played privately (an ephemeral board only its player sees): it no
-- longer holds its channel, so the one-live-game-per-channel rule leaves it out.
DROP INDEX games_one_live_per_channel;
CREATE UNIQUE INDEX games_one_live_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active') AND daily IS NULL;
CREATE INDEX games_live_daily ON games (host_id) WHERE status IN ('lobby', 'active') AND daily IS NOT NULL;
