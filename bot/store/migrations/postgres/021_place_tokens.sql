-- The tokens of interactions from places the bot reaches only through them (a group DM, a
-- server that never added it), kept for their 15 minutes (issue 49): a restarted bot still
-- edits the messages they made or showed (a board an Undo replaced, a computer's turn in
-- progress) and posts through them, instead of leaving boards live that nothing can retire.
-- A token lets its holder send and edit that interaction's messages for 15 minutes, nothing
-- more; rows older than that are deleted as new ones are written.
CREATE TABLE place_tokens (
    interaction_id BIGINT PRIMARY KEY,
    channel_id     BIGINT  NOT NULL,
    application_id BIGINT  NOT NULL,
    token          TEXT    NOT NULL,
    at             DOUBLE PRECISION NOT NULL,
    answered       INTEGER NOT NULL DEFAULT 0,
    shows          BIGINT,
    followups      TEXT    NOT NULL DEFAULT '[]',
    public         INTEGER NOT NULL DEFAULT 1  -- 0: its answers are its member's alone
);
CREATE INDEX place_tokens_at ON place_tokens (at);
