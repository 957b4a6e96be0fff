-- The request (a click or a command) a move answers: two processes that both receive it (a
-- deploy that overlaps, two sessions of one shard) record it once; the second is refused.
ALTER TABLE moves ADD COLUMN request_id BIGINT;
CREATE UNIQUE INDEX moves_once_per_request ON moves (request_id) WHERE request_id IS NOT NULL;
