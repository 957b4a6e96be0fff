-- The language a game's channel messages and pictures are in (a catalog code of bot.i18n:
-- 'en', 'de', 'pt_BR' ...), fixed when its lobby opens; and a server's chosen language for
-- new games (NULL: the server's language as Discord reports it).
ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
ALTER TABLE guild_settings ADD COLUMN language TEXT;
