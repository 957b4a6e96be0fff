-- A random id for this database: the nonces of posted messages carry it, so that two bots
-- with separate databases (a staging copy on the same token, say) never share a nonce.
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO meta (key, value) VALUES ('install_id', substr(md5(random()::text), 1, 6));
